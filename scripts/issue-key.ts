/**
 * `npm run key:issue -- --email person@example.com [--account acc_…] [--name label]`: for a
 * self-hosted operator, issues a new API key for the member with that email when they lost the
 * only one (docs/account.md, "A lost key"). Run it with the same database settings as the
 * service (DATABASE_URL, or DATA_DIR for the embedded database, whose service must be stopped
 * first: the embedded database takes one process at a time). Prints the key once; their other
 * keys stay as they are. Exit 0 issued, 1 nothing issued, 2 bad arguments or configuration.
 */
import { parseArgs } from 'node:util';
import { parseConfigOrReport } from '../src/config/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { issueRecoveryKey } from '../src/features/keys/key-recovery.ts';

const USAGE = 'Usage: npm run key:issue -- --email person@example.com [--account acc_…] [--name label]\n';

async function main(): Promise<number> {
  let args: { email?: string; account?: string; name?: string };
  try {
    args = parseArgs({
      options: { email: { type: 'string' }, account: { type: 'string' }, name: { type: 'string' } },
    }).values;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!args.email?.includes('@')) {
    process.stderr.write(`Give the email of the person whose key was lost.\n${USAGE}`);
    return 2;
  }
  const config = parseConfigOrReport(process.env);
  if (!config) return 2;
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, poolMax: 2 });
  try {
    const result = await issueRecoveryKey(database.db, {
      email: args.email,
      accountId: args.account,
      name: args.name,
      now: Date.now(),
    });
    switch (result.kind) {
      case 'none':
        process.stderr.write(
          `No account has a member with the email ${args.email}${args.account ? ` in ${args.account}` : ''}; check the spelling, or sign up again with it.\n`,
        );
        return 1;
      case 'several':
        process.stderr.write(
          `${args.email} is a member of ${result.accounts.length} accounts; run again with --account and one of:\n${result.accounts
            .map((a) => `  ${a.id}  (account email ${a.email}, role ${a.role})`)
            .join('\n')}\n`,
        );
        return 1;
      case 'issued':
        process.stdout.write(
          `Issued a new key "${result.key.name}" for ${result.member.email} (${result.member.role} of account ${result.account.id}, ${result.account.email}):\n\n  ${result.apiKey}\n\nIt is shown only now. Hand it to the person over a private channel; they sign in to the console with it and may revoke it there once they have made another.\n`,
        );
        return 0;
    }
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`key:issue failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);

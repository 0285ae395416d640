/**
 * `npm run vault:reseal`: after rotating KIT_VAULT_KEY, re-seals every sealed column (channel
 * tokens, OAuth PKCE verifiers, webhook secrets) under the new key. Run it with the same
 * database settings as the service, the new key in KIT_VAULT_KEY and the old key(s) in
 * KIT_VAULT_OLD_KEYS; once it reports no failures the old keys can be dropped. Safe to run
 * while the service is up and safe to re-run. Prints counts and row ids, never secrets.
 */
import { parseConfigOrReport } from '../src/config/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { resealAll } from '../src/vault/reseal.ts';
import { VaultError, vaultFromConfig } from '../src/vault/vault.ts';

async function main(): Promise<number> {
  const config = parseConfigOrReport(process.env);
  if (!config) return 2;
  let vault: ReturnType<typeof vaultFromConfig>;
  try {
    vault = vaultFromConfig(config);
  } catch (err) {
    if (err instanceof VaultError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    throw err;
  }
  if (!vault) {
    process.stderr.write('KIT_VAULT_KEY is not set: there is no key to re-seal under.\n');
    return 2;
  }
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolMax: 2,
  });
  try {
    process.stdout.write(
      `Re-sealing under key ${vault.currentKid} (also opening: ${vault.kids.slice(1).join(', ') || 'none'}) on ${database.kind}\n`,
    );
    const reports = await resealAll(database.db, vault);
    let failed = 0;
    for (const r of reports) {
      failed += r.failed;
      process.stdout.write(
        `${r.column}: scanned ${r.scanned}, re-sealed ${r.resealed}, already current ${r.current}, not vault values ${r.foreign}, failed ${r.failed}\n`,
      );
      if (r.failedIds.length > 0) process.stdout.write(`  failed rows: ${r.failedIds.join(', ')}\n`);
    }
    if (failed > 0) {
      process.stdout.write(
        `${failed} value(s) did not open with KIT_VAULT_KEY or KIT_VAULT_OLD_KEYS; keep the old keys until they are resolved (reconnect those channels).\n`,
      );
      return 1;
    }
    process.stdout.write(
      'Done: every sealed value is under the current key; KIT_VAULT_OLD_KEYS may now be removed.\n',
    );
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`vault:reseal failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);

import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { accounts, members } from '../../db/schema/index.ts';
import { scopesForRole } from '../../domain/roles.ts';
import type { ApiKey } from './keys.schemas.ts';
import { issueKey } from './keys.service.ts';

/** What `npm run key:issue` found for an email. */
export type KeyRecovery =
  | { kind: 'none' }
  /** The email is a member of several accounts: the operator names one with --account. */
  | { kind: 'several'; accounts: { id: string; email: string; role: string }[] }
  | {
      kind: 'issued';
      account: { id: string; email: string };
      member: { id: string; email: string; role: string };
      key: ApiKey;
      apiKey: string;
    };

/**
 * A way back for a self-hosted operator when a person lost their only key (scripts/issue-key.ts):
 * a new key for the member with this email (any case), with the scopes the member's role gives a
 * new key. The person's other keys stay as they are. Not reachable over HTTP: whoever runs it
 * already holds the database.
 */
export async function issueRecoveryKey(
  db: DbOrTx,
  input: { email: string; accountId?: string; name?: string; now: number },
): Promise<KeyRecovery> {
  const emailKey = input.email.trim().toLowerCase();
  const found = await db
    .select({ member: members, account: accounts })
    .from(members)
    .innerJoin(accounts, eq(accounts.id, members.accountId))
    .where(
      and(
        eq(members.emailKey, emailKey),
        input.accountId === undefined ? undefined : eq(members.accountId, input.accountId),
      ),
    );
  if (found.length === 0) return { kind: 'none' };
  if (found.length > 1)
    return {
      kind: 'several',
      accounts: found.map((f) => ({ id: f.account.id, email: f.account.email, role: f.member.role })),
    };
  const { member, account } = found[0]!;
  const name = input.name ?? `recovered ${new Date(input.now).toISOString().slice(0, 10)}`;
  const { key, apiKey } = await issueKey(
    db,
    { accountId: account.id, memberId: member.id },
    name,
    input.now,
    scopesForRole(member.role),
  );
  return {
    kind: 'issued',
    account: { id: account.id, email: account.email },
    member: { id: member.id, email: member.email, role: member.role },
    key,
    apiKey,
  };
}

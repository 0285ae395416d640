import type { DbOrTx } from '../../db/client.ts';
import { members } from '../../db/schema/index.ts';
import type { Role } from '../../domain/roles.ts';
import { newId } from '../../lib/ids.ts';
import type { Member } from './members.schemas.ts';

export type MemberRow = typeof members.$inferSelect;

export const toMember = (row: MemberRow): Member => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  createdAt: row.createdAt,
  lastActiveAt: row.lastActiveAt,
});

/**
 * Adds a member to an account inside the caller's transaction (the account's creator, an
 * accepted invitation); null when the account already has a member with that email.
 */
export async function insertMember(
  db: DbOrTx,
  input: { accountId: string; email: string; name: string | null; role: Role; now: number },
): Promise<MemberRow | null> {
  const email = input.email.trim();
  const [row] = await db
    .insert(members)
    .values({
      id: newId('member'),
      accountId: input.accountId,
      email,
      emailKey: email.toLowerCase(),
      name: input.name,
      role: input.role,
      createdAt: input.now,
    })
    .onConflictDoNothing({ target: [members.accountId, members.emailKey] })
    .returning();
  return row ?? null;
}

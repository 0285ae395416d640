import { and, asc, count, eq } from 'drizzle-orm';
import { requireRole } from '../../caller.ts';
import type { Call, Caller, Ctx } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { accounts, apiKeys, members } from '../../db/schema/index.ts';
import { Conflict } from '../../domain/errors.ts';
import type { Role } from '../../domain/roles.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { ownedNotFound, requireOwned } from '../tenancy.ts';
import { type MemberRow, toMember } from './member-row.ts';
import type { Member } from './members.schemas.ts';

/*
 * The people of a workspace. The routes' roles (admin for changing and removing) are checked
 * before a verb runs (src/domain/roles.ts); the rules about whom a caller may change are here.
 */

export async function listMembers({ ctx }: Call<void>): Promise<Member[]> {
  const rows = await ctx.deps.db
    .select()
    .from(members)
    .where(eq(members.accountId, ctx.caller.accountId))
    .orderBy(asc(members.createdAt), asc(members.id));
  return rows.map(toMember);
}

/**
 * Owners are changed, removed and made only by owners: an admin manages the members below
 * owner (docs/teams.md). Throws 403 forbidden naming the owner role.
 */
export function requireManageable(caller: Caller, target: Pick<MemberRow, 'role'>, newRole?: Role) {
  if (target.role === 'owner') requireRole(caller, 'owner', 'Changing or removing an owner');
  if (newRole === 'owner') requireRole(caller, 'owner', 'Making a member an owner');
}

/** The target row under the account's lock, so two owners cannot demote each other at once. */
async function lockedTarget(tx: DbOrTx, ctx: Ctx, id: string): Promise<MemberRow> {
  await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.id, ctx.caller.accountId))
    .for('update');
  return requireOwned({ accountId: ctx.caller.accountId, db: tx }, members, id, 'Member');
}

async function refuseLastOwner(tx: DbOrTx, ctx: Ctx, target: MemberRow, what: string) {
  if (target.role !== 'owner') return;
  const [owners] = await tx
    .select({ n: count() })
    .from(members)
    .where(and(eq(members.accountId, ctx.caller.accountId), eq(members.role, 'owner')));
  if ((owners?.n ?? 0) <= 1)
    throw new Conflict(
      'last_owner',
      `${what} would leave the workspace without an owner; make another member an owner first (PATCH /v1/members/{id} with role owner).`,
    );
}

const keyIdsOf = async (tx: DbOrTx, memberId: string) =>
  (await tx.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.memberId, memberId))).map((k) => k.id);

/**
 * After the change commits, no process may keep acting on the member's keys as they were:
 * each key is evicted here and announced to every other process (src/api/auth-cache.ts).
 */
async function forgetKeys(ctx: Ctx, keyIds: string[]) {
  await Promise.all(
    keyIds.map((keyId) =>
      ctx.deps.authCache
        .announceRevocation(ctx.deps.kv, keyId)
        .catch((err) =>
          ctx.log.warn({ err, keyId }, 'could not broadcast a member change; caches expire it shortly'),
        ),
    ),
  );
}

export async function changeMemberRole({ ctx, input }: Call<{ id: string; role: Role }>): Promise<Member> {
  const { row, keyIds } = await ctx.deps.db.transaction(async (tx) => {
    const target = await lockedTarget(tx, ctx, input.id);
    requireManageable(ctx.caller, target, input.role);
    if (input.role !== 'owner') await refuseLastOwner(tx, ctx, target, 'Changing the last owner’s role');
    const [updated] = await tx
      .update(members)
      .set({ role: input.role })
      .where(and(eq(members.id, target.id), eq(members.accountId, ctx.caller.accountId)))
      .returning();
    if (!updated) throw ownedNotFound('Member');
    if (target.role !== input.role)
      await recordAudit(tx, ctx.caller, {
        action: 'member.role_changed',
        target: target.id,
        at: ctx.deps.clock.now(),
      });
    return { row: updated, keyIds: await keyIdsOf(tx, target.id) };
  });
  await forgetKeys(ctx, keyIds);
  return toMember(row);
}

/** Removes a member; its keys, OAuth grants and sessions go with it (the foreign keys cascade). */
export async function removeMember({ ctx, input }: Call<{ id: string }>): Promise<{ deleted: boolean }> {
  const keyIds = await ctx.deps.db.transaction(async (tx) => {
    const target = await lockedTarget(tx, ctx, input.id);
    requireManageable(ctx.caller, target);
    await refuseLastOwner(tx, ctx, target, 'Removing the last owner');
    const ids = await keyIdsOf(tx, target.id);
    await tx
      .delete(members)
      .where(and(eq(members.id, target.id), eq(members.accountId, ctx.caller.accountId)));
    await recordAudit(tx, ctx.caller, {
      action: 'member.removed',
      target: target.id,
      at: ctx.deps.clock.now(),
    });
    return ids;
  });
  await forgetKeys(ctx, keyIds);
  return { deleted: true };
}

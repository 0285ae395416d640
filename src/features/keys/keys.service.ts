import { and, count, eq, isNull } from 'drizzle-orm';
import { requireScopeSet } from '../../caller.ts';
import type { Call, Ctx } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { accounts, apiKeys, members } from '../../db/schema/index.ts';
import { Conflict } from '../../domain/errors.ts';
import { roleReaches, scopesForRole } from '../../domain/roles.ts';
import { normalizeScopes, SCOPES, type Scope } from '../../domain/scopes.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { newId } from '../../lib/ids.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { requireManageable } from '../members/members.service.ts';
import { listOwned, ownedNotFound, requireOwned } from '../tenancy.ts';
import { displayPrefix, generateApiKey } from './key-format.ts';
import { toApiKey } from './key-view.ts';
import type { ApiKey, CreateKeyResult } from './keys.schemas.ts';

/**
 * Rate budgets are per key (CONTRACT.md), so unlimited keys would multiply an account's budget
 * without bound: an account holds at most this many live keys. Rotation swaps one for one.
 */
export const MAX_LIVE_KEYS_PER_ACCOUNT = 25;

/** Mints a key for a member inside the given transaction; the plaintext leaves only in the result. */
export async function issueKey(
  db: DbOrTx,
  owner: { accountId: string; memberId: string },
  name: string,
  now: number,
  scopes: readonly Scope[] = SCOPES,
): Promise<CreateKeyResult> {
  const secret = generateApiKey();
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: newId('key'),
      accountId: owner.accountId,
      memberId: owner.memberId,
      name,
      keyPrefix: displayPrefix(secret),
      keyHash: sha256Hex(secret),
      scopes: normalizeScopes(scopes),
      createdAt: now,
    })
    .returning();
  return { key: toApiKey(row!), apiKey: secret };
}

/**
 * Whose keys a caller sees and manages: an admin or owner every member's (an admin not an
 * owner's, see requireManageable), everyone else their own.
 */
const seesAllKeys = (ctx: Ctx) => roleReaches(ctx.caller.role, 'admin');

export async function listKeys({ ctx }: Call<void>): Promise<ApiKey[]> {
  const own = seesAllKeys(ctx) ? undefined : eq(apiKeys.memberId, ctx.caller.memberId);
  return (await listOwned(ctx, apiKeys, own)).map(toApiKey);
}

export async function getCallingKey(ctx: Ctx): Promise<ApiKey> {
  return toApiKey(await requireOwned(ctx, apiKeys, ctx.caller.keyId ?? '', 'Key'));
}

/** A key the caller may revoke or rotate: its own, or (admin, owner) another member's; else 404. */
async function requireManagedKey(ctx: Ctx, db: DbOrTx, id: string) {
  const [row] = await db
    .select({ key: apiKeys, role: members.role })
    .from(apiKeys)
    .innerJoin(members, eq(members.id, apiKeys.memberId))
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, ctx.caller.accountId)));
  if (!row || (row.key.memberId !== ctx.caller.memberId && !seesAllKeys(ctx))) throw ownedNotFound('Key');
  if (row.key.memberId !== ctx.caller.memberId) requireManageable(ctx.caller, { role: row.role });
  return row.key;
}

/** The live-key limit, under the account row's lock so concurrent creations cannot overshoot. */
async function refuseOverLimit(tx: DbOrTx, accountId: string) {
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('update');
  const [live] = await tx
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)));
  if ((live?.n ?? 0) >= MAX_LIVE_KEYS_PER_ACCOUNT) {
    throw new Conflict(
      'key_limit_reached',
      `An account may hold at most ${MAX_LIVE_KEYS_PER_ACCOUNT} live API keys; revoke one (DELETE /v1/keys/{id}) first.`,
    );
  }
}

/** A new key of the caller's own member. */
export async function createKey({
  ctx,
  input,
}: Call<{ name?: string; scopes?: Scope[] }>): Promise<CreateKeyResult> {
  const { accountId, memberId } = ctx.caller;
  const scopes = normalizeScopes(input.scopes ?? SCOPES);
  requireScopeSet(ctx.caller, scopes, 'Creating a key with these scopes');
  const now = ctx.deps.clock.now();
  return ctx.deps.db.transaction(async (tx) => {
    await refuseOverLimit(tx, accountId);
    const created = await issueKey(tx, { accountId, memberId }, input.name ?? 'default', now, scopes);
    await recordAudit(tx, ctx.caller, { action: 'key.created', target: created.key.id, at: now });
    return created;
  });
}

/**
 * A new key for another member (one who lost theirs), issued by an owner or admin. It holds
 * what the member's role reaches unless narrower scopes are asked for.
 */
export async function issueMemberKey({
  ctx,
  input,
}: Call<{ id: string; name?: string; scopes?: Scope[] }>): Promise<CreateKeyResult> {
  const { accountId } = ctx.caller;
  return ctx.deps.db.transaction(async (tx) => {
    const member = await requireOwned({ accountId, db: tx }, members, input.id, 'Member');
    requireManageable(ctx.caller, member);
    const scopes = normalizeScopes(input.scopes ?? scopesForRole(member.role));
    requireScopeSet(ctx.caller, scopes, 'Issuing a key with these scopes');
    await refuseOverLimit(tx, accountId);
    const now = ctx.deps.clock.now();
    const issued = await issueKey(
      tx,
      { accountId, memberId: member.id },
      input.name ?? 'default',
      now,
      scopes,
    );
    await recordAudit(tx, ctx.caller, { action: 'key.created', target: issued.key.id, at: now });
    return issued;
  });
}

/** Revokes a live key and issues a replacement with the same name and member, atomically. */
export async function rotateKey({ ctx, input }: Call<{ id: string }>): Promise<CreateKeyResult> {
  const now = ctx.deps.clock.now();
  const replacement = await ctx.deps.db.transaction(async (tx) => {
    await requireManagedKey(ctx, tx, input.id);
    const [revoked] = await tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(
        and(eq(apiKeys.id, input.id), eq(apiKeys.accountId, ctx.caller.accountId), isNull(apiKeys.revokedAt)),
      )
      .returning();
    if (!revoked) throw ownedNotFound('Live key');
    // The replacement keeps the scopes, which the rotating key must hold too.
    requireScopeSet(ctx.caller, revoked.scopes, 'Rotating a key with these scopes');
    const issued = await issueKey(
      tx,
      { accountId: ctx.caller.accountId, memberId: revoked.memberId },
      revoked.name,
      now,
      revoked.scopes,
    );
    await recordAudit(tx, ctx.caller, { action: 'key.revoked', target: revoked.id, at: now });
    await recordAudit(tx, ctx.caller, { action: 'key.created', target: issued.key.id, at: now });
    return issued;
  });
  await announceRevocation(ctx, input.id);
  return replacement;
}

/** After the revocation commits, no process may keep trusting the key from its cache. */
async function announceRevocation(ctx: Ctx, keyId: string) {
  await ctx.deps.authCache
    .announceRevocation(ctx.deps.kv, keyId)
    .catch((err) =>
      ctx.log.warn({ err, keyId }, 'could not broadcast key revocation; caches expire it shortly'),
    );
}

/** Revokes a key the caller manages; revoking an already revoked key is a no-op that still answers true. */
export async function revokeKey({ ctx, input }: Call<{ id: string }>): Promise<{ revoked: boolean }> {
  const now = ctx.deps.clock.now();
  const row = await requireManagedKey(ctx, ctx.deps.db, input.id);
  if (row.revokedAt === null) {
    await ctx.deps.db.transaction(async (tx) => {
      const revoked = await tx
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(eq(apiKeys.id, input.id), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      // Only the request that revoked it records it: a concurrent repeat finds it revoked.
      if (revoked.length > 0)
        await recordAudit(tx, ctx.caller, { action: 'key.revoked', target: input.id, at: now });
    });
  }
  await announceRevocation(ctx, input.id);
  return { revoked: true };
}

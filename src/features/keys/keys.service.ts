import { and, count, eq, isNull } from 'drizzle-orm';
import { requireScopeSet } from '../../caller.ts';
import type { Call, Ctx } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { accounts, apiKeys } from '../../db/schema/index.ts';
import { Conflict } from '../../domain/errors.ts';
import { normalizeScopes, SCOPES, type Scope } from '../../domain/scopes.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { newId } from '../../lib/ids.ts';
import { listOwned, ownedNotFound, requireOwned } from '../tenancy.ts';
import { displayPrefix, generateApiKey } from './key-format.ts';
import { toApiKey } from './key-view.ts';
import type { ApiKey, CreateKeyResult } from './keys.schemas.ts';

/**
 * Rate budgets are per key (CONTRACT.md), so unlimited keys would multiply an account's budget
 * without bound: an account holds at most this many live keys. Rotation swaps one for one.
 */
export const MAX_LIVE_KEYS_PER_ACCOUNT = 25;

/** Mints a key for an account inside the given transaction; the plaintext leaves only in the result. */
export async function issueKey(
  db: DbOrTx,
  accountId: string,
  name: string,
  now: number,
  scopes: readonly Scope[] = SCOPES,
): Promise<CreateKeyResult> {
  const secret = generateApiKey();
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: newId('key'),
      accountId,
      name,
      keyPrefix: displayPrefix(secret),
      keyHash: sha256Hex(secret),
      scopes: normalizeScopes(scopes),
      createdAt: now,
    })
    .returning();
  return { key: toApiKey(row!), apiKey: secret };
}

export async function listKeys({ ctx }: Call<void>): Promise<ApiKey[]> {
  return (await listOwned(ctx, apiKeys)).map(toApiKey);
}

export async function getCallingKey(ctx: Ctx): Promise<ApiKey> {
  return toApiKey(await requireOwned(ctx, apiKeys, ctx.caller.keyId ?? '', 'Key'));
}

export async function createKey({
  ctx,
  input,
}: Call<{ name?: string; scopes?: Scope[] }>): Promise<CreateKeyResult> {
  const accountId = ctx.caller.accountId;
  const scopes = normalizeScopes(input.scopes ?? SCOPES);
  requireScopeSet(ctx.caller, scopes, 'Creating a key with these scopes');
  return ctx.deps.db.transaction(async (tx) => {
    // The account row lock serialises key creation per account, so concurrent requests cannot overshoot.
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
    return issueKey(tx, accountId, input.name ?? 'default', ctx.deps.clock.now(), scopes);
  });
}

/** Revokes a live key of the caller's and issues a replacement with the same name, atomically. */
export async function rotateKey({ ctx, input }: Call<{ id: string }>): Promise<CreateKeyResult> {
  const now = ctx.deps.clock.now();
  const replacement = await ctx.deps.db.transaction(async (tx) => {
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
    return issueKey(tx, ctx.caller.accountId, revoked.name, now, revoked.scopes);
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

/** Revokes a key of the caller's; revoking an already revoked key is a no-op that still answers true. */
export async function revokeKey({ ctx, input }: Call<{ id: string }>): Promise<{ revoked: boolean }> {
  const now = ctx.deps.clock.now();
  const row = await requireOwned(ctx, apiKeys, input.id, 'Key');
  if (row.revokedAt === null) {
    await ctx.deps.db
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.id, input.id), isNull(apiKeys.revokedAt)));
  }
  await announceRevocation(ctx, input.id);
  return { revoked: true };
}

import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { AppDeps, Caller } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { accounts, apiKeys, members } from '../../db/schema/index.ts';
import { toMember } from '../members/member-row.ts';
import { toApiKey } from './key-view.ts';

/*
 * Who a presented key belongs to: the keys feature owns the lookup; src/http/auth.ts keeps the
 * hook (bearer parsing, budgets, 401).
 */

/** lastUsedAt is refreshed at most this often per key, so a request is not a write. */
const LAST_USED_RESOLUTION_MS = 60_000;

declare module '../../context.ts' {
  interface ProcessMemory {
    /** The key lookup as a prepared statement (prepareKeyLookup), so the hot path builds no query. */
    keyLookup: ReturnType<typeof prepareKeyLookup>;
  }
}

/** The key lookup, prepared once per process by createDeps (`deps.memory.keyLookup`). */
export function prepareKeyLookup(db: Db) {
  return db
    .select({
      key: apiKeys,
      account: { id: accounts.id, email: accounts.email, plan: accounts.plan },
      member: members,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .innerJoin(members, eq(members.id, apiKeys.memberId))
    .where(eq(apiKeys.keyHash, sql.placeholder('hash')))
    .limit(1)
    .prepare('postkit_auth_lookup');
}

/**
 * Resolves a key's digest to its caller with one indexed read (which also serves whoami), or
 * null when the key is unknown or revoked (the auth hook answers 401).
 */
export async function callerForDigest(deps: AppDeps, digest: string): Promise<Caller | null> {
  const cached = cachedCaller(deps, digest);
  if (cached) return cached;
  const [row] = await deps.memory.keyLookup.execute({ hash: digest });
  if (!row || row.key.revokedAt !== null) return null;
  const caller: Caller = {
    accountId: row.account.id,
    keyId: row.key.id,
    plan: row.account.plan,
    memberId: row.member.id,
    role: row.member.role,
    scopes: row.key.scopes,
    snapshot: { account: row.account, member: toMember(row.member), key: toApiKey(row.key) },
  };
  touchIfStale(deps, caller);
  deps.authCache.set(digest, caller);
  return caller;
}

/** The caller of a key this process has cached, synchronously (the auth hook's hot path). */
export function cachedCaller(deps: AppDeps, digest: string): Caller | undefined {
  const cached = deps.authCache.get(digest);
  if (cached) touchIfStale(deps, cached);
  return cached;
}

/**
 * Records use at most once a minute per key, and with it the member's activity; the snapshot
 * carries the time so whoami shows it.
 */
function touchIfStale(deps: AppDeps, caller: Caller) {
  const snapshot = caller.snapshot;
  if (!snapshot) return;
  const { key, member } = snapshot;
  const now = deps.clock.now();
  if (key.lastUsedAt !== null && key.lastUsedAt >= now - LAST_USED_RESOLUTION_MS) return;
  key.lastUsedAt = now;
  member.lastActiveAt = now;
  touchKey(deps, key.id, now);
  touchMember(deps, member.id, now);
}

/** As touchKey, for the member: at most one write a minute whichever of its keys is used. */
function touchMember(deps: AppDeps, memberId: string, now: number) {
  deps.db
    .update(members)
    .set({ lastActiveAt: now })
    .where(
      and(
        eq(members.id, memberId),
        or(isNull(members.lastActiveAt), lt(members.lastActiveAt, now - LAST_USED_RESOLUTION_MS)),
      ),
    )
    .catch((err) => deps.log.warn({ err }, 'could not record member activity'));
}

/** Fire-and-forget; the condition makes concurrent processes write at most once per resolution. */
function touchKey(deps: AppDeps, keyId: string, now: number) {
  deps.db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(apiKeys.id, keyId),
        or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, now - LAST_USED_RESOLUTION_MS)),
      ),
    )
    .catch((err) => deps.log.warn({ err }, 'could not record key use'));
}

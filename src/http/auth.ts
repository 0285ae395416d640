import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppDeps, Caller } from '../context.ts';
import type { Db } from '../db/client.ts';
import { accounts, apiKeys } from '../db/schema/index.ts';
import { isWellFormedApiKey } from '../features/keys/key-format.ts';
import { toApiKey } from '../features/keys/key-view.ts';
import { sha256Hex } from '../lib/hash.ts';
import { unauthorized } from './errors.ts';
import { type Budget, enforceBudget, hitBudgets } from './rate-limit.ts';

/** lastUsedAt is refreshed at most this often per key, so a request is not a write. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** One prepared statement per database: built once, so the hot path skips query building. */
const lookups = new WeakMap<Db, ReturnType<typeof prepareLookup>>();

function prepareLookup(db: Db) {
  return db
    .select({ key: apiKeys, account: { id: accounts.id, email: accounts.email, plan: accounts.plan } })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(eq(apiKeys.keyHash, sql.placeholder('hash')))
    .limit(1)
    .prepare('postkit_auth_lookup');
}

/** Pulls a well-formed key out of a bearer header, or throws 401 without touching any store. */
export function bearerKey(header: string | undefined): string {
  if (!header) throw unauthorized();
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('The Authorization header must be `Bearer <key>`.');
  const key = match[1]!;
  if (!isWellFormedApiKey(key)) throw unauthorized('That is not a valid API key (bad format or checksum).');
  return key;
}

/** Resolves a key's digest to its caller with one indexed read (which also serves whoami), or 401. */
export async function callerForDigest(deps: AppDeps, digest: string): Promise<Caller> {
  const cached = deps.authCache.get(digest);
  if (cached) {
    touchIfStale(deps, cached);
    return cached;
  }
  let lookup = lookups.get(deps.db);
  if (!lookup) {
    lookup = prepareLookup(deps.db);
    lookups.set(deps.db, lookup);
  }
  const [row] = await lookup.execute({ hash: digest });
  if (!row || row.key.revokedAt !== null) throw unauthorized('This API key is unknown or has been revoked.');
  const caller: Caller = {
    accountId: row.account.id,
    keyId: row.key.id,
    plan: row.account.plan,
    snapshot: { account: row.account, key: toApiKey(row.key) },
  };
  touchIfStale(deps, caller);
  deps.authCache.set(digest, caller);
  return caller;
}

/** Records use at most once a minute per key; the snapshot carries the time so whoami shows it. */
function touchIfStale(deps: AppDeps, caller: Caller) {
  const key = caller.snapshot?.key;
  if (!key) return;
  const now = deps.clock.now();
  if (key.lastUsedAt !== null && key.lastUsedAt >= now - LAST_USED_RESOLUTION_MS) return;
  key.lastUsedAt = now;
  touchKey(deps, key.id, now);
}

/** The per-key budgets, keyed by the key's digest so they can be spent while the key is looked up. */
export function keyBudgets(deps: AppDeps, digest: string) {
  const id = digest.slice(0, 32);
  return {
    requests: {
      key: `rl:req:${id}`,
      limit: deps.config.RATE_LIMIT_REQUESTS_PER_MIN,
      windowMs: 60_000,
      headerPrefix: 'x-ratelimit',
      label: 'request',
    },
    model: {
      key: `rl:llm:${id}`,
      limit: deps.config.RATE_LIMIT_MODEL_PER_MIN,
      windowMs: 60_000,
      headerPrefix: 'x-ratelimit-llm',
      label: 'model-backed',
    },
  } satisfies Record<string, Budget>;
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

/**
 * Every route is protected unless its config says `public`. The hook authenticates, builds
 * the request's service context and spends the overall budget (and the model budget on
 * model-backed routes), setting the x-ratelimit-* headers. The key lookup and the budget
 * round trips run concurrently: a request costs one database read and one store call in time.
 */
export function registerAuth(app: FastifyInstance, deps: AppDeps) {
  app.decorateRequest('ctx', null as never);
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    const url = request.routeOptions.url;
    // Unknown routes (404) and the reference page's own assets need no key.
    if (!url || config.public || url === '/docs' || url.startsWith('/docs/')) return;
    const digest = sha256Hex(bearerKey(request.headers.authorization));
    const budgets = keyBudgets(deps, digest);
    const spent = config.modelBudget ? [budgets.requests, budgets.model] : [budgets.requests];
    const [caller, hits] = await Promise.all([
      callerForDigest(deps, digest),
      hitBudgets(deps.kv, spent, request.log),
    ]);
    request.ctx = { deps, caller, requestId: request.id, log: request.log };
    for (const [i, budget] of spent.entries()) enforceBudget(reply, budget, hits[i] ?? null);
  });
}

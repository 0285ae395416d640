import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppDeps, Caller } from '../context.ts';
import { accounts, apiKeys } from '../db/schema/index.ts';
import { isWellFormedApiKey } from '../features/keys/key-format.ts';
import { sha256Hex } from '../lib/hash.ts';
import { unauthorized } from './errors.ts';
import { spend } from './rate-limit.ts';

/** lastUsedAt is refreshed at most this often per key, so a request is not a write. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Resolves a bearer header to its caller, or throws 401. Malformed keys never reach the database. */
export async function authenticate(deps: AppDeps, header: string | undefined): Promise<Caller> {
  if (!header) throw unauthorized();
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('The Authorization header must be `Bearer <key>`.');
  const key = match[1]!;
  if (!isWellFormedApiKey(key)) throw unauthorized('That is not a valid API key (bad format or checksum).');
  const [row] = await deps.db
    .select({
      keyId: apiKeys.id,
      accountId: apiKeys.accountId,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      plan: accounts.plan,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(eq(apiKeys.keyHash, sha256Hex(key)))
    .limit(1);
  if (!row || row.revokedAt !== null) throw unauthorized('This API key is unknown or has been revoked.');
  const now = deps.clock.now();
  if (row.lastUsedAt === null || row.lastUsedAt < now - LAST_USED_RESOLUTION_MS)
    touchKey(deps, row.keyId, now);
  return { accountId: row.accountId, keyId: row.keyId, plan: row.plan };
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
 * model-backed routes), setting the x-ratelimit-* headers.
 */
export function registerAuth(app: FastifyInstance, deps: AppDeps) {
  app.decorateRequest('ctx', null as never);
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (!request.routeOptions.url || config.public) return;
    const caller = await authenticate(deps, request.headers.authorization);
    request.ctx = { deps, caller, requestId: request.id, log: request.log };
    const { config: cfg } = deps;
    await spend(
      deps.kv,
      {
        key: `rl:req:${caller.keyId}`,
        limit: cfg.RATE_LIMIT_REQUESTS_PER_MIN,
        windowMs: 60_000,
        headerPrefix: 'x-ratelimit',
        label: 'request',
      },
      reply,
      request.log,
    );
    if (config.modelBudget) {
      await spend(
        deps.kv,
        {
          key: `rl:llm:${caller.keyId}`,
          limit: cfg.RATE_LIMIT_MODEL_PER_MIN,
          windowMs: 60_000,
          headerPrefix: 'x-ratelimit-llm',
          label: 'model-backed',
        },
        reply,
        request.log,
      );
    }
  });
}

import type { FastifyReply, FastifyBaseLogger as Logger } from 'fastify';
import type { KvStore } from '../kv/kv.ts';
import { rateLimited } from './errors.ts';

export interface Budget {
  /** Key in the store, e.g. `rl:req:<keyId>`. */
  key: string;
  limit: number;
  windowMs: number;
  /** Header prefix: `x-ratelimit` or `x-ratelimit-llm`. */
  headerPrefix: string;
  /** Named in the 429 message. */
  label: string;
}

/**
 * Spends one unit of a fixed-window budget (one atomic round trip), sets the budget's
 * headers, and throws 429 with Retry-After when it is spent. When the store is down the
 * request is let through (fail open): availability of the API outranks exact budgets,
 * and the outage shows on /v1/health.
 */
export async function spend(kv: KvStore, budget: Budget, reply: FastifyReply, log: Logger): Promise<void> {
  let hit: { count: number; resetMs: number };
  try {
    hit = await kv.hit(budget.key, budget.windowMs);
  } catch (err) {
    log.warn({ err, budget: budget.label }, 'rate limit store unavailable; failing open');
    return;
  }
  const resetSeconds = Math.max(1, Math.ceil(hit.resetMs / 1000));
  reply.header(`${budget.headerPrefix}-limit`, budget.limit);
  reply.header(`${budget.headerPrefix}-remaining`, Math.max(0, budget.limit - hit.count));
  reply.header(`${budget.headerPrefix}-reset`, resetSeconds);
  if (hit.count > budget.limit) throw rateLimited(resetSeconds, budget.label);
}

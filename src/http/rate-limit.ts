import type { FastifyReply, FastifyBaseLogger as Logger } from 'fastify';
import { RateLimited } from '../domain/errors.ts';
import type { KvStore, WindowHit } from '../kv/kv.ts';

export interface Budget {
  /** Key in the store, e.g. `rl:req:<key digest>`. */
  key: string;
  limit: number;
  windowMs: number;
  /** Header prefix: `x-ratelimit` or `x-ratelimit-llm`. */
  headerPrefix: string;
  /** Named in the 429 message. */
  label: string;
}

/**
 * Spends one unit of a fixed-window budget (one atomic round trip). When the store is down
 * the request is let through (fail open, null): availability of the API outranks exact
 * budgets, and the outage shows on /v1/health.
 */
export async function hitBudget(kv: KvStore, budget: Budget, log: Logger): Promise<WindowHit | null> {
  try {
    return await kv.hit(budget.key, budget.windowMs);
  } catch (err) {
    log.warn({ err, budget: budget.label }, 'rate limit store unavailable; failing open');
    return null;
  }
}

/** Spends several budgets of one window in a single round trip (null each when the store is down). */
export async function hitBudgets(
  kv: KvStore,
  budgets: readonly Budget[],
  log: Logger,
): Promise<(WindowHit | null)[]> {
  const windowMs = budgets[0]?.windowMs ?? 60_000;
  if (budgets.some((b) => b.windowMs !== windowMs)) {
    return Promise.all(budgets.map((b) => hitBudget(kv, b, log)));
  }
  try {
    return await kv.hitMany(
      budgets.map((b) => b.key),
      windowMs,
    );
  } catch (err) {
    log.warn({ err }, 'rate limit store unavailable; failing open');
    return budgets.map(() => null);
  }
}

/** Sets the budget's headers and throws 429 with Retry-After when it is spent. */
export function enforceBudget(reply: FastifyReply, budget: Budget, hit: WindowHit | null): void {
  if (!hit) return;
  const resetSeconds = Math.max(1, Math.ceil(hit.resetMs / 1000));
  reply.header(`${budget.headerPrefix}-limit`, budget.limit);
  reply.header(`${budget.headerPrefix}-remaining`, Math.max(0, budget.limit - hit.count));
  reply.header(`${budget.headerPrefix}-reset`, resetSeconds);
  if (hit.count > budget.limit)
    throw new RateLimited(
      resetSeconds,
      `Rate limit exceeded for the ${budget.label} budget; retry in ${resetSeconds}s.`,
    );
}

export async function spend(kv: KvStore, budget: Budget, reply: FastifyReply, log: Logger): Promise<void> {
  enforceBudget(reply, budget, await hitBudget(kv, budget, log));
}

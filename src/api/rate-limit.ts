import type { FastifyReply, FastifyBaseLogger as Logger } from 'fastify';
import { RateLimited } from '../domain/errors.ts';
import type { WindowHit } from '../kv/kv.ts';
import type { BudgetLeases } from './budget-leases.ts';
import { replyHeaderObject } from './reply-headers.ts';

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
 * Spends one unit of a fixed-window budget, mostly from this process's lease of it
 * (`deps.memory.budgetLeases`, budget-leases.ts; a store round trip only to reserve more). When the store is down the
 * request is let through (fail open, null): availability of the API outranks exact budgets,
 * and the outage shows on /v1/health.
 */
export async function hitBudget(
  leases: BudgetLeases,
  budget: Budget,
  log: Logger,
): Promise<WindowHit | null> {
  const [hit] = await hitBudgets(leases, [budget], log);
  return hit ?? null;
}

/**
 * Spends one unit of each budget (a budget listed n times spends n units, numbered in order);
 * null each when the store is down.
 */
export async function hitBudgets(
  leases: BudgetLeases,
  budgets: readonly Budget[],
  log: Logger,
): Promise<(WindowHit | null)[]> {
  const units = new Map<string, { budget: Budget; n: number }>();
  for (const b of budgets) {
    const entry = units.get(b.key);
    if (entry) entry.n++;
    else units.set(b.key, { budget: b, n: 1 });
  }
  try {
    const last = new Map<string, WindowHit>();
    await Promise.all(
      [...units.values()].map(async ({ budget, n }) => {
        last.set(budget.key, await leases.take(budget.key, n, budget.limit, budget.windowMs));
      }),
    );
    // The i-th of a budget's n units is `last - (n - i)`.
    const seen = new Map<string, number>();
    return budgets.map((b) => {
      const hit = last.get(b.key)!;
      const i = (seen.get(b.key) ?? 0) + 1;
      seen.set(b.key, i);
      return { count: hit.count - (units.get(b.key)!.n - i), resetMs: hit.resetMs };
    });
  } catch (err) {
    log.warn({ err }, 'rate limit store unavailable; failing open');
    return budgets.map(() => null);
  }
}

/** One unit from this process's lease of the budget, synchronously; null when the store must be asked. */
export function hitBudgetNow(leases: BudgetLeases, budget: Budget): WindowHit | null {
  return leases.takeNow(budget.key, budget.limit, budget.windowMs);
}

const names = new Map<string, { limit: string; remaining: string; reset: string }>();

/** The three header names of a prefix, built once (this runs on every request). */
function headerNames(prefix: string) {
  let n = names.get(prefix);
  if (!n) {
    n = { limit: `${prefix}-limit`, remaining: `${prefix}-remaining`, reset: `${prefix}-reset` };
    names.set(prefix, n);
  }
  return n;
}

/**
 * Sets the budget's headers and throws 429 with Retry-After when it is spent. The values go out
 * as strings: Node checks and writes each header value as a string, so a number would be
 * converted twice. The two prefixes every key has are written by constant name (reply-headers.ts).
 */
export function enforceBudget(reply: FastifyReply, budget: Budget, hit: WindowHit | null): void {
  if (!hit) return;
  const resetSeconds = Math.max(1, Math.ceil(hit.resetMs / 1000));
  const limit = String(budget.limit);
  const remaining = String(Math.max(0, budget.limit - hit.count));
  const reset = String(resetSeconds);
  const headers = replyHeaderObject(reply);
  if (headers && budget.headerPrefix === 'x-ratelimit') {
    headers['x-ratelimit-limit'] = limit;
    headers['x-ratelimit-remaining'] = remaining;
    headers['x-ratelimit-reset'] = reset;
  } else if (headers && budget.headerPrefix === 'x-ratelimit-llm') {
    headers['x-ratelimit-llm-limit'] = limit;
    headers['x-ratelimit-llm-remaining'] = remaining;
    headers['x-ratelimit-llm-reset'] = reset;
  } else {
    const names = headerNames(budget.headerPrefix);
    reply.header(names.limit, limit);
    reply.header(names.remaining, remaining);
    reply.header(names.reset, reset);
  }
  if (hit.count > budget.limit)
    throw new RateLimited(
      resetSeconds,
      `Rate limit exceeded for the ${budget.label} budget; retry in ${resetSeconds}s.`,
    );
}

export async function spend(
  leases: BudgetLeases,
  budget: Budget,
  reply: FastifyReply,
  log: Logger,
): Promise<void> {
  enforceBudget(reply, budget, await hitBudget(leases, budget, log));
}

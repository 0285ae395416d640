import type { Budget } from '../api/rate-limit.ts';
import type { AppDeps, Caller } from '../context.ts';

/*
 * The rate budgets of an API key (a minute's requests, a minute's model-backed requests), keyed
 * by the key's digest so they can be spent while the key is looked up, and built once per key,
 * not per request: by digest (budgetsOf) and, on the hot path, by the cached caller object that
 * stands for that digest (budgetsOfCached). Spent by the auth hook (auth.ts) and the MCP tools.
 */

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

declare module '../context.ts' {
  interface ProcessMemory {
    /** Each key's budgets (keyBudgets), built once per key digest (at most 10,000), not per request. */
    keyBudgets: Map<string, ReturnType<typeof keyBudgets>>;
    /**
     * The same budgets by cached caller object (budgetsOfCached): a caller stands for one key
     * digest (src/features/keys/key-lookup.ts makes one per lookup), and a digest's Map lookup
     * hashes and compares its 64 characters, which the hot path already did to find the caller.
     */
    budgetsByCaller: WeakMap<Caller, ReturnType<typeof keyBudgets>>;
  }
}

/** keyBudgets, built once per key digest (bounded), not once per request. */
export function budgetsOf(deps: AppDeps, digest: string) {
  const byDigest = deps.memory.keyBudgets;
  let budgets = byDigest.get(digest);
  if (!budgets) {
    if (byDigest.size >= 10_000) byDigest.clear();
    budgets = keyBudgets(deps, digest);
    byDigest.set(digest, budgets);
  }
  return budgets;
}

/** A cached caller's budgets, found by the caller object (`deps.memory.budgetsByCaller`). */
export function budgetsOfCached(deps: AppDeps, caller: Caller, digest: string) {
  const byCaller = deps.memory.budgetsByCaller;
  let budgets = byCaller.get(caller);
  if (!budgets) {
    budgets = budgetsOf(deps, digest);
    byCaller.set(caller, budgets);
  }
  return budgets;
}

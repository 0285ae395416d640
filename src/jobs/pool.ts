/**
 * A bounded pool: at most `limit` tasks in flight. Sweeps use it two ways: `forEachBounded`
 * over rows already claimed, or `add`/`next` to refill freed slots with new claims as they open
 * (so a burst of due rows flows through steadily instead of in lockstep batches).
 * Tasks handle their own errors: a task that rejects makes `next`/`drain` reject.
 */
export interface BoundedPool {
  /** Tasks in flight. */
  readonly size: number;
  /** Slots open: `limit - size`. */
  readonly free: number;
  /** Starts `task` now; the caller checks `free` first (adding past the limit throws). */
  add(task: () => Promise<void>): void;
  /** Resolves when any task in flight finishes (at once when none is). */
  next(): Promise<void>;
  /** Resolves when every task in flight has finished. */
  drain(): Promise<void>;
}

export function boundedPool(limit: number): BoundedPool {
  if (!(limit >= 1)) throw new RangeError(`pool limit must be at least 1, got ${limit}`);
  const inFlight = new Set<Promise<void>>();
  return {
    get size() {
      return inFlight.size;
    },
    get free() {
      return limit - inFlight.size;
    },
    add(task) {
      if (inFlight.size >= limit) throw new RangeError('pool is full');
      const running: Promise<void> = task().finally(() => inFlight.delete(running));
      inFlight.add(running);
    },
    async next() {
      if (inFlight.size > 0) await Promise.race(inFlight);
    },
    async drain() {
      await Promise.all(inFlight);
    },
  };
}

/**
 * Runs `fn` over `items` with at most `limit` in flight. Once `signal` aborts no further item
 * starts; those started finish. Returns how many items were started.
 */
export async function forEachBounded<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<number> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length && !signal?.aborted) await fn(items[next++]!);
  });
  await Promise.all(workers);
  return next;
}

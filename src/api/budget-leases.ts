import type { KvStore, SpareRule, WindowHit } from '../kv/kv.ts';

/**
 * Rate budgets spent mostly in memory. A budget's units are numbered 1..limit within its window
 * and live in the shared store (Redis across processes). A process reserves units before it
 * spends them, atomically, and while plenty of the budget is left it reserves a few spare ones
 * at the same time, which later requests spend without a store round trip.
 *
 * Every admitted request holds a distinct unit, so a window never admits more than `limit`
 * across all processes (no over-admission), and `x-ratelimit-remaining` stays `limit - unit`.
 * Spare units a process has not spent when its window ends are lost: that is under-admission,
 * bounded by the spare rule (docs/decisions.md, Rate limits). A lease ends no later than the
 * store's window: its end is counted from when the reservation was sent.
 */
export const SPARE: SpareRule = { divisor: 32, maxSpare: 256 };

interface Demand {
  units: number;
  done(hit: WindowHit): void;
  fail(err: unknown): void;
}

interface Lease {
  /** Reserved units not spent yet, as inclusive ranges. */
  ranges: [number, number][];
  /** Epoch ms (this process's clock) after which the lease's window is over. */
  expiresAt: number;
  /** The store had no unit left after this process's last reservation. */
  exhausted: boolean;
  /** Requests waiting for units, served in order; one reservation at a time asks for all of them. */
  queue: Demand[];
  reserving: boolean;
  /** Units the last reservation granted: a lease refills ahead once it holds a quarter of that. */
  lastGrant: number;
}

/** A lease refills ahead once it holds this fraction (1/n) of its last grant or less. */
const REFILL_FRACTION = 4;

const heldUnits = (lease: Lease) => {
  let held = 0;
  for (const [from, to] of lease.ranges) held += to - from + 1;
  return held;
};

/** Units one reservation asks for at most (a burst of waiting requests beyond it asks again). */
const MAX_ASK = 1_000;
const MAX_LEASES = 10_000;

/** One per process and store, made in createDeps (`deps.memory.budgetLeases`). */
export class BudgetLeases {
  readonly #kv: KvStore;
  readonly #now: () => number;
  readonly #leases = new Map<string, Lease>();

  constructor(kv: KvStore, now: () => number = Date.now) {
    this.#kv = kv;
    this.#now = now;
  }

  /**
   * The hot path: one unit from the lease, synchronously, or null when the store must be asked
   * (then `take`). Also answers a refusal once the store has no unit left in the window. A lease
   * running low is refilled in the background before it is empty, so a busy key's requests do
   * not queue behind the store round trip (a queued request takes the slower asynchronous path).
   */
  takeNow(key: string, limit: number, windowMs: number): WindowHit | null {
    const lease = this.#leases.get(key);
    if (!lease || lease.queue.length > 0) return null;
    const hit = this.#serve(lease, 1, limit);
    if (hit && !lease.reserving && !lease.exhausted && lease.lastGrant > 0) {
      const held = heldUnits(lease);
      if (held <= lease.lastGrant / REFILL_FRACTION) this.#refill(key, lease, held, limit, windowMs);
    }
    return hit;
  }

  /** Spends `units` of the budget; `count` is the last unit spent (over `limit`: refused). */
  take(key: string, units: number, limit: number, windowMs: number): Promise<WindowHit> {
    const lease = this.#lease(key);
    if (lease.queue.length === 0) {
      const hit = this.#serve(lease, units, limit);
      if (hit) return Promise.resolve(hit);
    }
    return new Promise((done, fail) => {
      lease.queue.push({ units, done, fail });
      this.#pump(key, lease, limit, windowMs);
    });
  }

  /** The key's live lease, a new empty one when its window is over (or it had none). */
  #lease(key: string): Lease {
    let lease = this.#leases.get(key);
    if (lease && (lease.expiresAt > this.#now() || lease.reserving || lease.queue.length > 0)) return lease;
    if (!lease && this.#leases.size >= MAX_LEASES) this.#evict();
    lease = { ranges: [], expiresAt: 0, exhausted: false, queue: [], reserving: false, lastGrant: 0 };
    this.#leases.set(key, lease);
    return lease;
  }

  /** Units for one request from the lease alone; a refusal once the store has none left; else null. */
  #serve(lease: Lease, units: number, limit: number): WindowHit | null {
    const now = this.#now();
    if (lease.expiresAt <= now) return null;
    const resetMs = lease.expiresAt - now;
    if (heldUnits(lease) < units) return lease.exhausted ? { count: limit + 1, resetMs } : null;
    let count = 0;
    for (let left = units; left > 0; ) {
      const range = lease.ranges[0]!;
      const take = Math.min(left, range[1] - range[0] + 1);
      count = range[0] + take - 1;
      range[0] += take;
      left -= take;
      if (range[0] > range[1]) lease.ranges.shift();
    }
    return { count, resetMs };
  }

  /** Serves waiting requests in order; asks the store for what the rest need, one call at a time. */
  #pump(key: string, lease: Lease, limit: number, windowMs: number) {
    while (lease.queue.length > 0) {
      const hit = this.#serve(lease, lease.queue[0]!.units, limit);
      if (!hit) break;
      lease.queue.shift()!.done(hit);
    }
    if (lease.queue.length === 0 || lease.reserving) return;
    lease.reserving = true;
    const want = Math.min(
      MAX_ASK,
      lease.queue.reduce((n, d) => n + d.units, 0),
    );
    this.#reserve(key, lease, want, SPARE, limit, windowMs);
  }

  /**
   * Spare units only, while the lease still holds some: together with those it holds at most
   * SPARE.maxSpare, so the under-admission bound is the same as without refilling ahead.
   */
  #refill(key: string, lease: Lease, held: number, limit: number, windowMs: number) {
    const maxSpare = SPARE.maxSpare - held;
    if (maxSpare <= 0) return;
    lease.reserving = true;
    this.#reserve(key, lease, 0, { divisor: SPARE.divisor, maxSpare }, limit, windowMs);
  }

  /** One reservation in flight per lease; its units join the lease, then waiting requests are served. */
  #reserve(key: string, lease: Lease, want: number, spare: SpareRule, limit: number, windowMs: number) {
    const sentAt = this.#now();
    this.#kv.reserve(key, want, limit, windowMs, spare).then(
      (r) => {
        lease.reserving = false;
        // A lease ends no later than the store's window: counted from when the call was sent.
        // Units held from an earlier window are dropped: their numbers are counted again in the
        // new one (a window ends between a refill's sending and its answer, or the lease lapsed).
        const expiresAt = sentAt + r.resetMs;
        if (lease.expiresAt <= this.#now() || expiresAt > lease.expiresAt + windowMs / 2) {
          lease.ranges = [];
          lease.exhausted = false;
        }
        lease.expiresAt = expiresAt;
        lease.exhausted = r.used + r.granted >= limit;
        lease.lastGrant = r.granted;
        if (r.granted > 0) lease.ranges.push([r.used + 1, r.used + r.granted]);
        this.#pump(key, lease, limit, windowMs);
      },
      (err) => {
        lease.reserving = false;
        for (const d of lease.queue.splice(0)) d.fail(err);
      },
    );
  }

  /** Drops expired leases, then the oldest if still full. */
  #evict() {
    const now = this.#now();
    for (const [key, lease] of this.#leases) if (lease.expiresAt <= now) this.#leases.delete(key);
    if (this.#leases.size >= MAX_LEASES) {
      const oldest = this.#leases.keys().next().value;
      if (oldest !== undefined) this.#leases.delete(oldest);
    }
  }
}

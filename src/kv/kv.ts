/**
 * The key-value store behind rate limits, idempotency and caches: in-process by default,
 * Redis when REDIS_URL is set, so several API processes share one budget and one cache.
 */
export interface WindowHit {
  /** Hits in the current window, including this one. */
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/** How many spare units a reservation adds: min(maxSpare, floor((left after the granted ones) / divisor)). */
export interface SpareRule {
  divisor: number;
  maxSpare: number;
}

/** What `reserve` took from a fixed-window budget. */
export interface Reservation {
  /** Units spent in the window before this reservation. */
  used: number;
  /** Units granted: as many of those asked as were left (0 when none), plus any spare ones. */
  granted: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

export interface KvStore {
  readonly kind: 'memory' | 'redis';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets only when absent; true when this call set it. Atomic across processes. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  del(key: string): Promise<void>;
  /** Fixed-window counter: one atomic increment that also reports the window's reset. */
  hit(key: string, windowMs: number): Promise<WindowHit>;
  /** Several fixed-window counters of the same window in one atomic round trip. */
  hitMany(keys: readonly string[], windowMs: number): Promise<WindowHit[]>;
  /**
   * Takes up to `want` units of a fixed-window budget of `limit` (as many as are left), plus
   * spare units while plenty is left (spare.ts), atomically: the caller spends them without
   * asking again (src/api/budget-leases.ts).
   */
  reserve(key: string, want: number, limit: number, windowMs: number, spare: SpareRule): Promise<Reservation>;
  /** Broadcasts a message to every process subscribed to the channel (best effort). */
  publish(channel: string, message: string): Promise<void>;
  /** Receives the channel's messages from every process until the store closes. */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

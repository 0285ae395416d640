import { EventEmitter } from 'node:events';
import type { KvStore, Reservation, SpareRule, WindowHit } from './kv.ts';
import { spareUnits } from './spare.ts';

interface Entry {
  value: string;
  expiresAt: number;
}

/** Beyond this many entries the oldest are dropped, so caches cannot grow without bound. */
const MAX_ENTRIES = 100_000;

/** In-process store for a single process; expired entries are dropped lazily and by a sweep. */
export class MemoryKv implements KvStore {
  readonly kind = 'memory' as const;
  readonly #entries = new Map<string, Entry>();
  readonly #bus = new EventEmitter();
  readonly #sweep: NodeJS.Timeout;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#sweep = setInterval(() => this.#evictExpired(), 30_000);
    this.#sweep.unref();
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  #evictExpired() {
    const now = this.#now();
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
  }

  async get(key: string) {
    return this.#live(key)?.value ?? null;
  }

  /** Inserts as newest (Map order is insertion order) and evicts the oldest past the cap. */
  #put(key: string, entry: Entry) {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    if (this.#entries.size > MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  async set(key: string, value: string, ttlMs: number) {
    this.#put(key, { value, expiresAt: this.#now() + ttlMs });
  }

  async setIfAbsent(key: string, value: string, ttlMs: number) {
    if (this.#live(key)) return false;
    this.#put(key, { value, expiresAt: this.#now() + ttlMs });
    return true;
  }

  async del(key: string) {
    this.#entries.delete(key);
  }

  async hit(key: string, windowMs: number): Promise<WindowHit> {
    const now = this.#now();
    const entry = this.#live(key);
    if (!entry) {
      this.#put(key, { value: '1', expiresAt: now + windowMs });
      return { count: 1, resetMs: windowMs };
    }
    const count = Number(entry.value) + 1;
    entry.value = String(count);
    return { count, resetMs: entry.expiresAt - now };
  }

  async hitMany(keys: readonly string[], windowMs: number) {
    return Promise.all(keys.map((key) => this.hit(key, windowMs)));
  }

  async reserve(
    key: string,
    want: number,
    limit: number,
    windowMs: number,
    spare: SpareRule,
  ): Promise<Reservation> {
    const now = this.#now();
    const entry = this.#live(key);
    const used = entry ? Number(entry.value) : 0;
    const resetMs = entry ? entry.expiresAt - now : windowMs;
    const left = limit - used;
    if (left <= 0) return { used, granted: 0, resetMs };
    const asked = Math.min(want, left);
    const granted = asked + spareUnits(left - asked, spare);
    if (entry) entry.value = String(used + granted);
    else this.#put(key, { value: String(granted), expiresAt: now + windowMs });
    return { used, granted, resetMs };
  }

  async publish(channel: string, message: string) {
    this.#bus.emit(channel, message);
  }

  async subscribe(channel: string, onMessage: (message: string) => void) {
    this.#bus.on(channel, onMessage);
  }

  async ping() {}

  async close() {
    clearInterval(this.#sweep);
    this.#entries.clear();
    this.#bus.removeAllListeners();
  }
}

import type { KvStore, WindowHit } from './kv.ts';

interface Entry {
  value: string;
  expiresAt: number;
}

/** In-process store for a single process; expired entries are dropped lazily and by a sweep. */
export class MemoryKv implements KvStore {
  readonly kind = 'memory' as const;
  readonly #entries = new Map<string, Entry>();
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

  async set(key: string, value: string, ttlMs: number) {
    this.#entries.set(key, { value, expiresAt: this.#now() + ttlMs });
  }

  async setIfAbsent(key: string, value: string, ttlMs: number) {
    if (this.#live(key)) return false;
    this.#entries.set(key, { value, expiresAt: this.#now() + ttlMs });
    return true;
  }

  async del(key: string) {
    this.#entries.delete(key);
  }

  async hit(key: string, windowMs: number): Promise<WindowHit> {
    const now = this.#now();
    const entry = this.#live(key);
    if (!entry) {
      this.#entries.set(key, { value: '1', expiresAt: now + windowMs });
      return { count: 1, resetMs: windowMs };
    }
    const count = Number(entry.value) + 1;
    entry.value = String(count);
    return { count, resetMs: entry.expiresAt - now };
  }

  async ping() {}

  async close() {
    clearInterval(this.#sweep);
    this.#entries.clear();
  }
}

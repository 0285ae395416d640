import type { Caller } from '../caller.ts';
import type { KvStore } from '../kv/kv.ts';

const REVOKED_CHANNEL = 'auth:key-revoked';
const MAX_ENTRIES = 10_000;

interface Entry {
  caller: Caller;
  expiresAt: number;
}

/**
 * A short-lived in-process cache of authenticated keys (digest -> caller), so a hot key does not
 * cost a database read on every request. Revocation stays immediate: the revoking process evicts
 * at once and broadcasts the key id through the store (Redis pub/sub across processes); if a
 * broadcast is lost (store down), an entry lives at most `ttlMs`. A TTL of 0 disables the cache.
 */
export class AuthCache {
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  /** Keys revoked within the last TTL: a lookup that raced the revocation must not repopulate. */
  readonly #revoked = new Map<string, number>();

  constructor(ttlMs: number, now: () => number) {
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  get enabled() {
    return this.#ttlMs > 0;
  }

  get(digest: string): Caller | undefined {
    const entry = this.#entries.get(digest);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(digest);
      return undefined;
    }
    return entry.caller;
  }

  set(digest: string, caller: Caller) {
    if (!this.enabled || !caller.keyId) return;
    const revokedAt = this.#revoked.get(caller.keyId);
    if (revokedAt !== undefined && revokedAt > this.#now() - this.#ttlMs) return;
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(digest, { caller, expiresAt: this.#now() + this.#ttlMs });
  }

  evictKey(keyId: string) {
    const now = this.#now();
    this.#revoked.set(keyId, now);
    for (const [id, at] of this.#revoked) if (at <= now - this.#ttlMs) this.#revoked.delete(id);
    for (const [digest, entry] of this.#entries)
      if (entry.caller.keyId === keyId) this.#entries.delete(digest);
  }

  /** Listens for revocations from every process sharing the store. */
  async listen(kv: KvStore) {
    if (this.enabled) await kv.subscribe(REVOKED_CHANNEL, (keyId) => this.evictKey(keyId));
  }

  /** Called by the revoking process after its transaction commits. */
  async announceRevocation(kv: KvStore, keyId: string) {
    this.evictKey(keyId);
    if (this.enabled) await kv.publish(REVOKED_CHANNEL, keyId);
  }
}

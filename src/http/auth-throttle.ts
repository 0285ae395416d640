/**
 * What unauthenticated traffic may cost, decided in memory before any store is touched.
 *
 * - Failed authentications are counted per client address in a fixed one-minute window. Past
 *   the limit the address gets 429 `rate_limited` before its key is looked up, except for a key
 *   this process already knows to be valid (the auth cache), so a legitimate client behind the
 *   same address keeps working while the cache holds its key.
 * - A well-formed key found not to exist is remembered (by digest) for a minute, so repeating it
 *   costs no further database read.
 *
 * Both are per process and bounded in size: they make guessing and floods cheap to refuse, not
 * exact across processes (put a shared per-IP limit at the edge for that).
 */
const WINDOW_MS = 60_000;
const UNKNOWN_KEY_TTL_MS = 60_000;
const MAX_ADDRESSES = 50_000;
const MAX_UNKNOWN_KEYS = 50_000;

interface Window {
  /** Failed authentications in this window. */
  failures: number;
  /** Distinct keys being looked up: counted so a burst of different keys cannot overshoot. */
  pending: number;
  resetAt: number;
}

/** Drops the oldest entry of an insertion-ordered map past `max`. */
function bound<K, V>(map: Map<K, V>, max: number) {
  if (map.size < max) return;
  const oldest = map.keys().next().value;
  if (oldest !== undefined) map.delete(oldest);
}

export class AuthThrottle {
  readonly #limit: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, Window>();
  readonly #unknownKeys = new Map<string, number>();

  constructor(failuresPerMinute: number, now: () => number) {
    this.#limit = failuresPerMinute;
    this.#now = now;
  }

  #window(address: string): Window {
    const now = this.#now();
    let window = this.#windows.get(address);
    if (window && window.resetAt <= now) {
      window.failures = 0;
      window.resetAt = now + WINDOW_MS;
    }
    if (!window) {
      bound(this.#windows, MAX_ADDRESSES);
      window = { failures: 0, pending: 0, resetAt: now + WINDOW_MS };
      this.#windows.set(address, window);
    }
    return window;
  }

  /** Seconds until `address` may try again, or null when it may try now. */
  blocked(address: string): number | null {
    const window = this.#window(address);
    if (window.failures + window.pending < this.#limit) return null;
    return Math.max(1, Math.ceil((window.resetAt - this.#now()) / 1000));
  }

  /** A lookup for `address` starts: it counts against the limit until `finish`. */
  begin(address: string) {
    this.#window(address).pending++;
  }

  finish(address: string) {
    const window = this.#windows.get(address);
    if (!window) return;
    window.pending = Math.max(0, window.pending - 1);
    if (window.failures === 0 && window.pending === 0) this.#windows.delete(address);
  }

  recordFailure(address: string) {
    this.#window(address).failures++;
  }

  /** Whether this digest was looked up and found not to exist within the last minute. */
  isKnownUnknown(digest: string): boolean {
    const at = this.#unknownKeys.get(digest);
    if (at === undefined) return false;
    if (at + UNKNOWN_KEY_TTL_MS > this.#now()) return true;
    this.#unknownKeys.delete(digest);
    return false;
  }

  rememberUnknown(digest: string) {
    this.#unknownKeys.delete(digest);
    bound(this.#unknownKeys, MAX_UNKNOWN_KEYS);
    this.#unknownKeys.set(digest, this.#now());
  }
}

import { Redis } from 'ioredis';
import type { KvStore, WindowHit } from './kv.ts';

// INCR and the window's expiry in one round trip, so concurrent API processes never race.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

type RedisWithHit = Redis & { kitHit(key: string, windowMs: number): Promise<[number, number]> };

export class RedisKv implements KvStore {
  readonly kind = 'redis' as const;
  readonly #redis: RedisWithHit;
  readonly #prefix: string;

  private constructor(redis: RedisWithHit, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  /** Connects and waits until Redis answers; a bad URL fails startup instead of the first request. */
  static async connect(url: string, prefix = 'kit:'): Promise<RedisKv> {
    const redis = new Redis(url, {
      maxRetriesPerRequest: 1,
      connectTimeout: 5_000,
      lazyConnect: true,
      // Fail fast while disconnected instead of queueing requests behind a dead connection.
      enableOfflineQueue: false,
    }) as RedisWithHit;
    redis.defineCommand('kitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    redis.on('error', () => {}); // surfaced through failed commands and the health check
    await redis.connect();
    return new RedisKv(redis, prefix);
  }

  async get(key: string) {
    return this.#redis.get(this.#prefix + key);
  }

  async set(key: string, value: string, ttlMs: number) {
    await this.#redis.set(this.#prefix + key, value, 'PX', Math.max(1, Math.ceil(ttlMs)));
  }

  async setIfAbsent(key: string, value: string, ttlMs: number) {
    const result = await this.#redis.set(
      this.#prefix + key,
      value,
      'PX',
      Math.max(1, Math.ceil(ttlMs)),
      'NX',
    );
    return result === 'OK';
  }

  async del(key: string) {
    await this.#redis.del(this.#prefix + key);
  }

  async hit(key: string, windowMs: number): Promise<WindowHit> {
    const [count, resetMs] = await this.#redis.kitHit(this.#prefix + key, windowMs);
    return { count: Number(count), resetMs: Number(resetMs) };
  }

  async ping() {
    await this.#redis.ping();
  }

  async close() {
    this.#redis.disconnect();
  }
}

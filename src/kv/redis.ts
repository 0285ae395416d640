import { Redis } from 'ioredis';
import type { KvStore, Reservation, SpareRule, WindowHit } from './kv.ts';

// INCR and the window's expiry for every key in one round trip, so concurrent API processes
// never race and a request with two budgets costs one call. Returns count, ttl pairs.
const HIT_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('PEXPIRE', key, ARGV[1]) end
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then redis.call('PEXPIRE', key, ARGV[1]); ttl = tonumber(ARGV[1]) end
  out[#out + 1] = count
  out[#out + 1] = ttl
end
return out
`;

// Grants up to ARGV[1] units of a budget of ARGV[2] (window ARGV[3] ms), as many as are left,
// plus spare units while plenty is left (min(ARGV[5], floor(rest / ARGV[4])), as spare.ts).
// Returns used-before, granted, ttl.
const RESERVE_SCRIPT = `
local want = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
local left = limit - used
if left <= 0 then
  if ttl < 0 then ttl = window end
  return {used, 0, ttl}
end
local granted = math.min(want, left)
granted = granted + math.max(0, math.min(tonumber(ARGV[5]), math.floor((left - granted) / tonumber(ARGV[4]))))
redis.call('INCRBY', KEYS[1], granted)
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], window)
  ttl = window
end
return {used, granted, ttl}
`;

type RedisWithHit = Redis & {
  kitHit(...args: (string | number)[]): Promise<number[]>;
  kitReserve(...args: (string | number)[]): Promise<number[]>;
};

export class RedisKv implements KvStore {
  readonly kind = 'redis' as const;
  readonly #redis: RedisWithHit;
  readonly #prefix: string;
  #subscriber: Redis | null = null;
  readonly #handlers = new Map<string, ((message: string) => void)[]>();

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
      // Commands issued in the same tick share one socket write: under load, one syscall per
      // batch instead of one per request (the write dominated the hot path's CPU profile).
      enableAutoPipelining: true,
      // Except a budget's reservation: the API leases budgets in blocks (budget-leases.ts), so
      // one reservation serves a hundred requests or more and rarely shares a tick with another
      // command; through the auto-pipeline each paid for a pipeline of its own (its object, its
      // promise, its result array), which was most of ioredis' CPU in bench/api.
      autoPipeliningIgnoredCommands: ['kitReserve'],
    }) as RedisWithHit;
    redis.defineCommand('kitHit', { lua: HIT_SCRIPT });
    redis.defineCommand('kitReserve', { lua: RESERVE_SCRIPT, numberOfKeys: 1 });
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
    const [hit] = await this.hitMany([key], windowMs);
    return hit!;
  }

  async hitMany(keys: readonly string[], windowMs: number): Promise<WindowHit[]> {
    const flat = await this.#redis.kitHit(keys.length, ...keys.map((k) => this.#prefix + k), windowMs);
    return keys.map((_, i) => ({ count: Number(flat[2 * i]), resetMs: Number(flat[2 * i + 1]) }));
  }

  async reserve(
    key: string,
    units: number,
    limit: number,
    windowMs: number,
    spare: SpareRule,
  ): Promise<Reservation> {
    const [used, granted, resetMs] = await this.#redis.kitReserve(
      this.#prefix + key,
      units,
      limit,
      windowMs,
      spare.divisor,
      spare.maxSpare,
    );
    return { used: Number(used), granted: Number(granted), resetMs: Number(resetMs) };
  }

  async publish(channel: string, message: string) {
    await this.#redis.publish(this.#prefix + channel, message);
  }

  /** Subscriptions need a connection of their own; it is opened on first use. */
  async subscribe(channel: string, onMessage: (message: string) => void) {
    if (!this.#subscriber) {
      const subscriber = this.#redis.duplicate({ enableOfflineQueue: true });
      subscriber.on('error', () => {});
      subscriber.on('message', (ch: string, message: string) => {
        for (const handler of this.#handlers.get(ch) ?? []) handler(message);
      });
      this.#subscriber = subscriber;
    }
    const full = this.#prefix + channel;
    const handlers = this.#handlers.get(full) ?? [];
    handlers.push(onMessage);
    this.#handlers.set(full, handlers);
    await this.#subscriber.subscribe(full);
  }

  async ping() {
    await this.#redis.ping();
  }

  async close() {
    this.#subscriber?.disconnect();
    this.#redis.disconnect();
  }
}

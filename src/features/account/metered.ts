import type { Ctx } from '../../context.ts';
import { sha256Hex, stableStringify } from '../../lib/hash.ts';
import { scoreCacheVersion } from '../../scoring/index.ts';
import { consumeModelOperation, refundModelOperation } from './quota.ts';

/**
 * Caching and metering for the model-backed operations (score, rewrite, generate, plan,
 * voice distillation). Results are cached for 30 days per account, operation, normalised
 * input, engine and score version (schema, learned model and rules: `scoreCacheVersion`), in
 * deps.kv (Redis when configured). A cache hit costs nothing; a miss spends one operation of the monthly quota before the
 * engine runs and refunds it if the engine fails. The cache is per account so neither the
 * quota nor timing can tell one tenant what another has scored.
 */

export const CACHE_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export type Operation = 'score' | 'rewrite' | 'generate' | 'plan' | 'voice';

export function cacheKey(ctx: Ctx, op: Operation, payload: unknown): string {
  const version = scoreCacheVersion();
  return `intel:${op}:${version}:${ctx.deps.engine.id}:${ctx.caller.accountId}:${sha256Hex(stableStringify(payload))}`;
}

/** The operation a key was made for (`intel:<op>:…`, above), for the metrics' labels. */
const operationOf = (key: string) => key.split(':', 2)[1] ?? 'unknown';

declare module '../../context.ts' {
  interface ProcessMemory {
    /** The most recently used model-backed results (at most HOT_ENTRIES), in front of the store. */
    hotResults: Map<string, { json: string; expiresAt: number }>;
  }
}

/** Most recently used results kept in this process in front of the store (saves a round trip). */
const HOT_ENTRIES = 1_000;

const hotCache = (ctx: Ctx) => ctx.deps.memory.hotResults;

function remember(ctx: Ctx, key: string, json: string, expiresAt: number) {
  const cache = hotCache(ctx);
  cache.delete(key);
  cache.set(key, { json, expiresAt });
  if (cache.size > HOT_ENTRIES) cache.delete(cache.keys().next().value!);
}

/**
 * A cache read: this process's hot entries, then the store. Fails open: a store outage makes
 * every request a miss, never an error. A result never changes under its key (first writer
 * wins, below), so the hot copy can only ever equal the stored one.
 */
export async function readCache(ctx: Ctx, key: string): Promise<string | null> {
  const now = ctx.deps.clock.now();
  const hot = hotCache(ctx).get(key);
  if (hot && hot.expiresAt > now) return hot.json;
  try {
    const json = await ctx.deps.kv.get(key);
    // The store holds the TTL; the hot copy lives at most a minute more than it would anyway.
    if (json !== null) remember(ctx, key, json, now + 60_000);
    return json;
  } catch (err) {
    ctx.log.warn({ err }, 'intelligence cache unavailable; computing');
    return null;
  }
}

/**
 * Stores a result unless another process stored one first, and returns the one that stands:
 * with a non-deterministic model, every caller then sees the same answer for the same input.
 */
export async function writeCache(ctx: Ctx, key: string, json: string): Promise<string> {
  let winner = json;
  try {
    if (!(await ctx.deps.kv.setIfAbsent(key, json, CACHE_TTL_MS)))
      winner = (await ctx.deps.kv.get(key)) ?? json;
  } catch (err) {
    ctx.log.warn({ err }, 'could not cache an intelligence result');
  }
  remember(ctx, key, winner, ctx.deps.clock.now() + 60_000);
  return winner;
}

/** A model-backed result as the cache serves it. */
export interface Cached<T> {
  /** The JSON the cache and the wire carry (a route sends it as is). */
  json: string;
  /** The result itself: the object just computed, or the cached JSON decoded. */
  value(): T;
}

/**
 * Runs `compute` unless cached. A caller that needs the result as an object (an MCP tool, a
 * stored score) gets the one just computed rather than its JSON parsed back; a route sends
 * `json`, so a cache hit is a single store read and no object is built.
 */
export async function cached<T>(
  ctx: Ctx,
  key: string,
  options: { metered: boolean },
  compute: () => Promise<T>,
): Promise<Cached<T>> {
  const operation = operationOf(key);
  const hit = await readCache(ctx, key);
  ctx.deps.metrics.cacheLookup(operation, hit !== null);
  if (hit !== null) return decoded(hit);
  if (options.metered) await consumeModelOperation(ctx);
  let value: T;
  let json: string;
  try {
    value = await compute();
    json = JSON.stringify(value);
    ctx.deps.metrics.engineRun(operation, ctx.deps.engine.id, true);
  } catch (err) {
    ctx.deps.metrics.engineRun(operation, ctx.deps.engine.id, false);
    if (options.metered) {
      await refundModelOperation(ctx).catch((refundErr) =>
        ctx.log.error({ err: refundErr }, 'could not refund a failed model operation'),
      );
    }
    throw err;
  }
  const winner = await writeCache(ctx, key, json);
  // Another process's result stands when it stored one first (writeCache): that one is served.
  return winner === json ? { json, value: () => value } : decoded(winner);
}

/** A stored result: its JSON was made by JSON.stringify of a `T` (above). */
const decoded = <T>(json: string): Cached<T> => ({ json, value: () => JSON.parse(json) as T });

/** Runs `compute` unless cached; returns the result as JSON (what the cache and the wire carry). */
export async function cachedJson<T>(
  ctx: Ctx,
  key: string,
  options: { metered: boolean },
  compute: () => Promise<T>,
): Promise<string> {
  return (await cached(ctx, key, options, compute)).json;
}

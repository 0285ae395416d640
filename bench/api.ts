import { fmt, type LoadResult, load, report, startChild } from './lib.ts';

/**
 * bench/api: authenticated GET /v1/account against a bare Fastify route answering the same JSON,
 * both driven by autocannon on loopback in one run. The API is measured twice: as deployed
 * (keys trusted in-process for AUTH_CACHE_TTL_MS, revocations broadcast) and with the cache off,
 * where every request also reads the key from the database. Both include auth, the rate-limit
 * round trip and the response schema. Uses DATABASE_URL / REDIS_URL when set.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const backend = `${process.env.DATABASE_URL ? 'postgres' : 'pglite'} + ${process.env.REDIS_URL ? 'redis' : 'memory'}`;

async function measureApi(cacheTtlMs: string): Promise<LoadResult> {
  const service = await startChild('src/main.ts', {
    PORT: '0',
    DATABASE_URL: process.env.DATABASE_URL ?? 'memory://',
    REDIS_URL: process.env.REDIS_URL,
    RATE_LIMIT_REQUESTS_PER_MIN: '100000000',
    RATE_LIMIT_SIGNUPS_PER_HOUR: '100000',
    AUTH_CACHE_TTL_MS: cacheTtlMs,
    KIT_ROLE: 'api',
    DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX,
  });
  try {
    const signup = await fetch(`${service.url}/v1/account`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `bench-${Date.now()}-${cacheTtlMs}@example.com` }),
    });
    const { apiKey } = (await signup.json()) as { apiKey: string };
    const headers = { authorization: `Bearer ${apiKey}` };
    await load(`${service.url}/v1/account`, { headers, seconds: 2 }); // warm-up
    return await load(`${service.url}/v1/account`, { headers, seconds });
  } finally {
    await service.stop();
  }
}

const baseline = await startChild('bench/baseline-server.ts', {});
let base: LoadResult;
try {
  await load(`${baseline.url}/v1/account`, { seconds: 2 });
  base = await load(`${baseline.url}/v1/account`, { seconds });
} finally {
  await baseline.stop();
}
const cached = await measureApi('5000');
const uncached = await measureApi('0');
const ratio = cached.requestsPerSec / base.requestsPerSec;
const ratioUncached = uncached.requestsPerSec / base.requestsPerSec;

console.log(`bench/api (${backend}, ${seconds}s each, 20 connections)`);
console.log(`  bare Fastify                     ${fmt(base.requestsPerSec)} req/s  p99 ${base.p99Ms} ms`);
console.log(
  `  GET /v1/account (key cache)      ${fmt(cached.requestsPerSec)} req/s  p99 ${cached.p99Ms} ms  ratio ${ratio.toFixed(2)} (target >= 0.5)`,
);
console.log(
  `  GET /v1/account (db read each)   ${fmt(uncached.requestsPerSec)} req/s  p99 ${uncached.p99Ms} ms  ratio ${ratioUncached.toFixed(2)}`,
);
const failures = cached.errors + cached.non2xx + uncached.errors + uncached.non2xx;
if (failures) console.log(`  WARNING: ${failures} failed requests`);
report('api', {
  backend,
  baselineRps: Math.round(base.requestsPerSec),
  apiRps: Math.round(cached.requestsPerSec),
  ratio: Number(ratio.toFixed(3)),
  apiP99Ms: cached.p99Ms,
  uncachedRps: Math.round(uncached.requestsPerSec),
  uncachedRatio: Number(ratioUncached.toFixed(3)),
  uncachedP99Ms: uncached.p99Ms,
  failures,
});

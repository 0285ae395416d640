import { fmt, load, report, startChild } from './lib.ts';

/**
 * bench/api: authenticated GET /v1/account (auth, rate limit and a database read) against a
 * bare Fastify route answering the same JSON, both driven by autocannon on loopback in one run.
 * Uses DATABASE_URL / REDIS_URL when set (the target is measured on PostgreSQL + Redis).
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const env = {
  PORT: '0',
  DATABASE_URL: process.env.DATABASE_URL ?? 'memory://',
  REDIS_URL: process.env.REDIS_URL,
  RATE_LIMIT_REQUESTS_PER_MIN: '100000000',
  KIT_ROLE: 'api',
  DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX,
};

const service = await startChild('src/main.ts', env);
const baseline = await startChild('bench/baseline-server.ts', {});
try {
  const signup = await fetch(`${service.url}/v1/account`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-${Date.now()}@example.com` }),
  });
  const { apiKey } = (await signup.json()) as { apiKey: string };
  const headers = { authorization: `Bearer ${apiKey}` };

  // Warm both up so JIT and connection pools are hot before measuring.
  await load(`${service.url}/v1/account`, { headers, seconds: 2 });
  await load(`${baseline.url}/v1/account`, { seconds: 2 });

  const base = await load(`${baseline.url}/v1/account`, { seconds });
  const api = await load(`${service.url}/v1/account`, { headers, seconds });
  const ratio = api.requestsPerSec / base.requestsPerSec;
  const backend = `${process.env.DATABASE_URL ? 'postgres' : 'pglite'} + ${process.env.REDIS_URL ? 'redis' : 'memory'}`;

  console.log(`bench/api (${backend}, ${seconds}s each, 20 connections)`);
  console.log(`  bare Fastify      ${fmt(base.requestsPerSec)} req/s  p99 ${base.p99Ms} ms`);
  console.log(
    `  GET /v1/account   ${fmt(api.requestsPerSec)} req/s  p99 ${api.p99Ms} ms  (errors ${api.errors}, non-2xx ${api.non2xx})`,
  );
  console.log(`  ratio             ${ratio.toFixed(2)}  (target >= 0.5)`);
  report('api', {
    backend,
    baselineRps: Math.round(base.requestsPerSec),
    apiRps: Math.round(api.requestsPerSec),
    ratio: Number(ratio.toFixed(3)),
    apiP99Ms: api.p99Ms,
    baselineP99Ms: base.p99Ms,
    non2xx: api.non2xx,
  });
} finally {
  await service.stop();
  await baseline.stop();
}

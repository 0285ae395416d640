import { readFileSync } from 'node:fs';
import { type Child, fmt, type LoadResult, load, report, startChild } from './lib.ts';

/**
 * bench/api: authenticated GET /v1/account against a bare Fastify route answering the same JSON,
 * driven by autocannon on loopback. The API is measured as deployed (keys trusted in-process for
 * AUTH_CACHE_TTL_MS, revocations broadcast) and with the cache off, where every request also reads
 * the key from the database; both include auth, the rate-limit round trip and the response schema.
 * The three targets are measured in alternating rounds and the median of each is reported, so a
 * drift in the machine's load does not land on one side of a ratio. Uses DATABASE_URL / REDIS_URL.
 *
 * Throughput on this shared two-core machine moves with whatever else runs (the load generator
 * included), so each round also records the CPU time the target process spent per request
 * (/proc/<pid>/stat): the CPU ratio is what the throughput ratio would be with a core each.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const backend = `${process.env.DATABASE_URL ? 'postgres' : 'pglite'} + ${process.env.REDIS_URL ? 'redis' : 'memory'}`;

async function startApi(cacheTtlMs: string): Promise<{ child: Child; headers: Record<string, string> }> {
  const child = await startChild('src/main.ts', {
    PORT: '0',
    DATABASE_URL: process.env.DATABASE_URL ?? 'memory://',
    REDIS_URL: process.env.REDIS_URL,
    RATE_LIMIT_REQUESTS_PER_MIN: '100000000',
    RATE_LIMIT_SIGNUPS_PER_HOUR: '100000',
    AUTH_CACHE_TTL_MS: cacheTtlMs,
    KIT_ROLE: 'api',
    DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX,
  });
  const signup = await fetch(`${child.url}/v1/account`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-${Date.now()}-${cacheTtlMs}@example.com` }),
  });
  const { apiKey } = (await signup.json()) as { apiKey: string };
  return { child, headers: { authorization: `Bearer ${apiKey}` } };
}

/** CPU time (user + system) the process has used, in microseconds (the kernel counts in 10 ms ticks). */
function cpuMicros(child: Child): number {
  const fields = readFileSync(`/proc/${child.process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const baseline = await startChild('bench/baseline-server.ts', {});
const cachedApi = await startApi('5000');
const uncachedApi = await startApi('0');
const targets = {
  baseline: { url: `${baseline.url}/v1/account`, headers: {} as Record<string, string>, child: baseline },
  cached: { url: `${cachedApi.child.url}/v1/account`, headers: cachedApi.headers, child: cachedApi.child },
  uncached: {
    url: `${uncachedApi.child.url}/v1/account`,
    headers: uncachedApi.headers,
    child: uncachedApi.child,
  },
};
const results: Record<keyof typeof targets, LoadResult[]> = { baseline: [], cached: [], uncached: [] };
/** CPU microseconds per request, per round. */
const cpu: Record<keyof typeof targets, number[]> = { baseline: [], cached: [], uncached: [] };
try {
  for (const t of Object.values(targets)) await load(t.url, { headers: t.headers, seconds: 2 }); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const [name, t] of Object.entries(targets) as [
      keyof typeof targets,
      (typeof targets)['baseline'],
    ][]) {
      const before = cpuMicros(t.child);
      const result = await load(t.url, { headers: t.headers, seconds });
      results[name].push(result);
      cpu[name].push((cpuMicros(t.child) - before) / (result.requestsPerSec * seconds));
    }
  }
} finally {
  await Promise.all([baseline.stop(), cachedApi.child.stop(), uncachedApi.child.stop()]);
}

const rps = (name: keyof typeof targets) => median(results[name].map((r) => r.requestsPerSec));
const p99 = (name: keyof typeof targets) => median(results[name].map((r) => r.p99Ms));
const ratio = rps('cached') / rps('baseline');
const ratioUncached = rps('uncached') / rps('baseline');
const cpuPerRequest = (name: keyof typeof targets) => median(cpu[name]);
const cpuRatio = cpuPerRequest('baseline') / cpuPerRequest('cached');
const cpuRatioUncached = cpuPerRequest('baseline') / cpuPerRequest('uncached');
const failures = [...results.cached, ...results.uncached].reduce((n, r) => n + r.errors + r.non2xx, 0);

console.log(`bench/api (${backend}, median of ${rounds} alternating rounds of ${seconds}s, 20 connections)`);
console.log(`  bare Fastify                     ${fmt(rps('baseline'))} req/s  p99 ${p99('baseline')} ms`);
console.log(
  `  GET /v1/account (key cache)      ${fmt(rps('cached'))} req/s  p99 ${p99('cached')} ms  ratio ${ratio.toFixed(2)} (target >= 0.6)`,
);
console.log(
  `  GET /v1/account (db read each)   ${fmt(rps('uncached'))} req/s  p99 ${p99('uncached')} ms  ratio ${ratioUncached.toFixed(2)}`,
);
console.log(
  `  per-round ratios (key cache)     ${results.cached.map((r, i) => (r.requestsPerSec / results.baseline[i]!.requestsPerSec).toFixed(2)).join(', ')}`,
);
console.log(
  `  CPU per request (median)         bare ${cpuPerRequest('baseline').toFixed(1)} µs, key cache ${cpuPerRequest('cached').toFixed(1)} µs (ratio ${cpuRatio.toFixed(2)}), db read each ${cpuPerRequest('uncached').toFixed(1)} µs (ratio ${cpuRatioUncached.toFixed(2)})`,
);
if (failures) console.log(`  WARNING: ${failures} failed requests`);
report('api', {
  backend,
  rounds,
  baselineRps: Math.round(rps('baseline')),
  apiRps: Math.round(rps('cached')),
  ratio: Number(ratio.toFixed(3)),
  apiP99Ms: p99('cached'),
  uncachedRps: Math.round(rps('uncached')),
  uncachedRatio: Number(ratioUncached.toFixed(3)),
  uncachedP99Ms: p99('uncached'),
  baselineCpuMicros: Number(cpuPerRequest('baseline').toFixed(1)),
  apiCpuMicros: Number(cpuPerRequest('cached').toFixed(1)),
  cpuRatio: Number(cpuRatio.toFixed(3)),
  uncachedCpuRatio: Number(cpuRatioUncached.toFixed(3)),
  failures,
});

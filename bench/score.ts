import { loadavg } from 'node:os';
import { runRules } from '../src/scoring/rules/rules.ts';
import { scoreHeuristically } from '../src/scoring/scorer.ts';
import { fmt, type LoadResult, load, report, startChild } from './lib.ts';
import { benchPosts } from './score-posts.ts';

/**
 * bench/score, in one run:
 * 1. Scoring throughput on one core: 1,300-character posts cut from the calibration CSV
 *    (shared/data/linkedin-posts-2025.csv), scored by the offline engine in this process
 *    (rules alone, and rules + heuristic judge + the learned score.v2 model with its
 *    signals). Target >= 15,000 posts/s (issue 26; docs/performance.md).
 * 2. Cache-hit POST /v1/score (auth, both rate budgets, validation, cache read) against a bare
 *    Fastify route answering the same JSON, both driven by autocannon on loopback, in
 *    alternating rounds (median of each side). Target ratio >= 0.6. Uses DATABASE_URL /
 *    REDIS_URL when set. The load average is printed: the machine is shared.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const medianOf = (runs: LoadResult[]) =>
  [...runs].sort((a, b) => a.requestsPerSec - b.requestsPerSec)[Math.floor(runs.length / 2)]!;
const POST_CHARS = 1_300;

function throughput(posts: string[], fn: (post: string) => unknown, ms: number): number {
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < ms) {
    for (const post of posts) fn(post);
    n += posts.length;
  }
  return n / ((performance.now() - started) / 1000);
}

const posts = benchPosts(POST_CHARS);
throughput(posts, (post) => scoreHeuristically({ post }), 1_500); // warm the JIT
// Five alternating rounds of a second each: on a shared machine another process can take the
// core for a while, so the best round shows the engine's own speed and the median what this
// run got.
const rulesRounds: number[] = [];
const engineRounds: number[] = [];
for (let round = 0; round < 5; round++) {
  rulesRounds.push(throughput(posts, (post) => runRules({ post }), 1_000));
  engineRounds.push(throughput(posts, (post) => scoreHeuristically({ post }), 1_000));
}
const middle = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rulesOnly = Math.max(...rulesRounds);
const fullEngine = Math.max(...engineRounds);

const service = await startChild('src/main.ts', {
  PORT: '0',
  DATABASE_URL: process.env.DATABASE_URL ?? 'memory://',
  REDIS_URL: process.env.REDIS_URL,
  RATE_LIMIT_REQUESTS_PER_MIN: '100000000',
  RATE_LIMIT_MODEL_PER_MIN: '100000000',
  // Repeated runs against one Redis would otherwise spend the per-IP signup budget.
  RATE_LIMIT_SIGNUPS_PER_HOUR: '100000000',
  KIT_ROLE: 'api',
});
let baseline: Awaited<ReturnType<typeof startChild>> | null = null;
try {
  const signup = await fetch(`${service.url}/v1/account`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-score-${Date.now()}@example.com` }),
  });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
  const { apiKey } = (await signup.json()) as { apiKey: string };
  const body = JSON.stringify({ post: posts[0], platform: 'platformA', media: 'none' });
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const first = await fetch(`${service.url}/v1/score`, { method: 'POST', headers, body });
  if (first.status !== 200) throw new Error(`warm-up score failed: ${first.status} ${await first.text()}`);
  // The baseline answers exactly the cached ScoreResult.
  baseline = await startChild('bench/baseline-server.ts', { BASELINE_SCORE_BODY: await first.text() });
  const baseHeaders = { 'content-type': 'application/json' };

  await load(`${service.url}/v1/score`, { method: 'POST', headers, body, seconds: 2 });
  await load(`${baseline.url}/v1/score`, { method: 'POST', headers: baseHeaders, body, seconds: 2 });
  // Alternating rounds, median of each side: on a shared machine, load that comes and goes
  // then lands on both sides instead of on whichever ran second.
  const bases: LoadResult[] = [];
  const hits: LoadResult[] = [];
  for (let round = 0; round < rounds; round++) {
    bases.push(
      await load(`${baseline.url}/v1/score`, { method: 'POST', headers: baseHeaders, body, seconds }),
    );
    const hit = await load(`${service.url}/v1/score`, { method: 'POST', headers, body, seconds });
    if (hit.non2xx > 0 || hit.errors > 0)
      throw new Error(`score run had ${hit.non2xx} non-2xx, ${hit.errors} errors`);
    hits.push(hit);
  }
  const base = medianOf(bases);
  const hit = medianOf(hits);
  const ratios = hits.map((h, i) => h.requestsPerSec / bases[i]!.requestsPerSec);
  const ratio = hit.requestsPerSec / base.requestsPerSec;
  const backend = `${process.env.DATABASE_URL ? 'postgres' : 'pglite'} + ${process.env.REDIS_URL ? 'redis' : 'memory'}`;

  console.log(
    `bench/score: ${posts.length} distinct ${fmt(POST_CHARS)}-character posts from the calibration CSV`,
  );
  console.log(
    `  rules engine only          ${fmt(rulesOnly)} posts/s (one core; best of 5 rounds, median ${fmt(middle(rulesRounds))})`,
  );
  console.log(
    `  rules + judge + model      ${fmt(fullEngine)} posts/s (one core; best of 5 rounds, median ${fmt(middle(engineRounds))}; target >= 15,000)`,
  );
  console.log(
    `cache-hit POST /v1/score (${backend}, median of ${rounds} alternating rounds of ${seconds}s, 20 connections)`,
  );
  console.log(`  bare Fastify route         ${fmt(base.requestsPerSec)} req/s  p99 ${base.p99Ms} ms`);
  console.log(`  POST /v1/score (cache hit) ${fmt(hit.requestsPerSec)} req/s  p99 ${hit.p99Ms} ms`);
  console.log(`  ratio                      ${ratio.toFixed(2)} (target >= 0.6)`);
  console.log(`  per-round ratios           ${ratios.map((r) => r.toFixed(2)).join(', ')}`);
  console.log(
    `  load average at the end    ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} (2 cores, shared)`,
  );
  report('score', {
    rulesPostsPerSec: Math.round(rulesOnly),
    enginePostsPerSec: Math.round(fullEngine),
    enginePostsPerSecMedian: Math.round(middle(engineRounds)),
    baselineRps: Math.round(base.requestsPerSec),
    cacheHitRps: Math.round(hit.requestsPerSec),
    ratio: Number(ratio.toFixed(3)),
    rounds,
    loadAverage: loadavg()[0],
    backend,
  });
} finally {
  await baseline?.stop();
  await service.stop();
}

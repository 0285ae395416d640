import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { configWith } from '../src/config/config.ts';
import { posts } from '../src/db/schema/index.ts';
import { createPlatformA } from '../src/platforms/platformA/adapter.ts';
import { startSandbox } from '../src/sandbox/sandbox.ts';
import { type Service, startService } from '../src/server.ts';
import { fmt, NODE, report } from './lib.ts';

/**
 * bench/publish: 2,000 posts scheduled for the same moment, published by two worker processes
 * (`KIT_ROLE=worker`) sharing one PostgreSQL, against the platformA sandbox on loopback. The
 * API runs in this process, as a separate `api` role: its wakes reach the workers only as
 * PostgreSQL notifications (src/wake/wake-relay.ts). Prints throughput, lateness after `runAt` (p50/p99/max) and
 * duplicates (platform posts beyond one per scheduled post: must be 0), next to a baseline
 * in the same run: the same number of creates sent straight through the same adapter with the
 * same total concurrency, with no database, claims or bookkeeping.
 *
 * BENCH_POSTS (default 2000), BENCH_WORKERS (default 2), BENCH_CHANNELS (the posts go round
 * the channels of this many members, default 1), BENCH_SPREAD_MS (the due times are
 * spread evenly over this window, default 0: all at one moment; 60000 is "due within the same
 * minute"), BENCH_LONG_TRANSACTION=1 (a REPEATABLE READ transaction holds its snapshot open on
 * another connection for the whole burst, so vacuum cannot clear the rows the claims update),
 * BENCH_LEAD_MS (how far ahead the first due time is, default 3 s + 2 ms a post: raise it on a
 * loaded machine), BENCH_PLATFORM_LATENCY_MS (sandbox delay per create, default 0), PUBLISH_CONCURRENCY (per
 * worker, default the service's). Needs DATABASE_URL (default local PostgreSQL); REDIS_URL is
 * passed on when set. Lateness is each post's publish time after its own due time; throughput
 * is posts over the time from the first due time to the last publish, so with a spread it is
 * bounded by the arrival rate (the ratio is then a floor, not the capacity).
 *
 * Rates follow the machine's load; what a post costs moves less, so the bench also prints it:
 * the workers' CPU (/proc/<pid>/stat), the CPU of the PostgreSQL backends serving the bench
 * database, this process's (the sandbox and the API), and the database's transactions and rows
 * written (pg_stat_database), each per post, beside the CPU per create of the baseline.
 * BENCH_WARMUP_POSTS (default 0) schedules that many posts 2.5 s before the burst and leaves
 * them out of every figure: without it the burst is the first thing the freshly started workers
 * (and the sandbox) ever run, so it also pays their compiler's warm-up; a worker that has been
 * running for hours meets the top of the hour warm.
 * BENCH_WORKER_NODE_ARGS passes flags to the workers (`--cpu-prof --cpu-prof-dir=DIR`);
 * BENCH_LOG_STATEMENTS=1 has PostgreSQL log every statement on the bench database.
 *
 * The ten-times burst (issue 26): BENCH_POSTS=20000 BENCH_WORKERS=4 BENCH_SPREAD_MS=60000
 * BENCH_CHANNELS=100, and again with BENCH_LONG_TRANSACTION=1.
 */
const TOTAL = Number(process.env.BENCH_POSTS ?? 2_000);
const LATENCY_MS = Number(process.env.BENCH_PLATFORM_LATENCY_MS ?? 0);
const CONCURRENCY = Number(process.env.PUBLISH_CONCURRENCY ?? configWith().PUBLISH_CONCURRENCY);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const CHANNELS = Number(process.env.BENCH_CHANNELS ?? 1);
const SPREAD_MS = Number(process.env.BENCH_SPREAD_MS ?? 0);
const LONG_TRANSACTION = process.env.BENCH_LONG_TRANSACTION === '1';
const WARMUP = Number(process.env.BENCH_WARMUP_POSTS ?? 0);
const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** CPU seconds a process has used so far in user and kernel mode (utime, stime in /proc/<pid>/stat), 0 once it is gone. */
function cpuTimes(pid: number | undefined): { user: number; system: number } {
  try {
    // The command name (2nd field) is in parentheses and may hold spaces: count after it.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
  } catch {
    return { user: 0, system: 0 };
  }
}

const cpuSeconds = (pid: number | undefined) => {
  const { user, system } = cpuTimes(pid);
  return user + system;
};

/**
 * What the burst costs, in units the machine's load moves less than a rate: the workers' CPU
 * seconds, the CPU seconds of the PostgreSQL backends serving the bench database, and that
 * database's committed transactions and written rows (pg_stat_database).
 */
interface Cpu {
  workers: number;
  /** The workers' CPU seconds in the kernel (system calls: sockets, timers). */
  workersSystem: number;
  backends: Map<number, number>;
}

async function cpuNow(sql: ReturnType<typeof postgres>, db: string, workers: ChildProcess[]): Promise<Cpu> {
  const backends = await sql`select pid from pg_stat_activity where datname = ${db}`;
  return {
    workers: workers.reduce((sum, w) => sum + cpuSeconds(w.pid), 0),
    workersSystem: workers.reduce((sum, w) => sum + cpuTimes(w.pid).system, 0),
    backends: new Map(backends.map((b) => [b.pid as number, cpuSeconds(b.pid as number)])),
  };
}

/**
 * A backend reports its counts when a transaction ends at most once a second, and an idle one
 * only after 10 s (PostgreSQL 15's PGSTAT_IDLE_INTERVAL): read after the burst, wait that out.
 */
async function writesNow(sql: ReturnType<typeof postgres>, db: string) {
  await sql`select pg_stat_clear_snapshot()`;
  const [stats] = await sql`select xact_commit::float8 as commits,
    (tup_inserted + tup_updated + tup_deleted)::float8 as rows from pg_stat_database where datname = ${db}`;
  return { commits: Number(stats?.commits ?? 0), rows: Number(stats?.rows ?? 0) };
}

/**
 * The posts table's updates, and how many were HOT (no index entry written: the new row version
 * stays on its page and no indexed column changed), and how much the table and its indexes grew.
 * Read on the bench database's own connection.
 */
async function postsUpdatesNow(db: Service['deps']['db']) {
  await db.execute(sql`select pg_stat_clear_snapshot()`);
  const [row] = (await db.execute(
    sql`select n_tup_upd::float8 as updates, n_tup_hot_upd::float8 as hot,
      pg_relation_size('posts')::float8 as "tableBytes", pg_indexes_size('posts')::float8 as "indexBytes"
      from pg_stat_user_tables where relname = 'posts'`,
  )) as unknown as { updates: number; hot: number; tableBytes: number; indexBytes: number }[];
  return {
    updates: Number(row?.updates ?? 0),
    hot: Number(row?.hot ?? 0),
    tableBytes: Number(row?.tableBytes ?? 0),
    indexBytes: Number(row?.indexBytes ?? 0),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function json(url: string, init: RequestInit & { body?: string } = {}) {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url} -> ${res.status}: ${text}`);
  return JSON.parse(text);
}

function spawnWorker(env: Record<string, string>): Promise<ChildProcess> {
  // BENCH_WORKER_NODE_ARGS: e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the workers.
  const nodeArgs = process.env.BENCH_WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(NODE, [...nodeArgs, 'src/main.ts'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      if (process.env.BENCH_LOG_LEVEL) process.stderr.write(d);
      out += d;
      if (out.includes('postkit worker started')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${out}`)));
  });
}

/** The baseline: TOTAL creates straight through the adapter, WORKERS * CONCURRENCY at a time. */
async function baseline(sandbox: Awaited<ReturnType<typeof startSandbox>>): Promise<number> {
  const sub = sandbox.platformA.state.addMember().sub;
  const token = sandbox.platformA.state.issueToken({ sub });
  const adapter = createPlatformA({
    clientId: sandbox.platformA.clientId,
    clientSecret: sandbox.platformA.clientSecret,
    redirectUri: 'http://127.0.0.1/unused',
    authUrl: sandbox.platformA.authUrl,
    apiUrl: sandbox.platformA.apiUrl,
    apiVersion: configWith().PLATFORMA_API_VERSION,
    pkce: true,
  });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WORKERS * CONCURRENCY }, async () => {
      while (next < TOTAL) {
        const i = next++;
        await adapter.publish({
          accessToken: token.accessToken,
          authorRef: `urn:li:person:${sub}`,
          text: `Baseline ${i}`,
          media: [],
        });
      }
    }),
  );
  return TOTAL / ((performance.now() - started) / 1000);
}

const loadAtStart = loadavg()
  .map((l) => l.toFixed(2))
  .join(', ');
const dbName = `postkit_bench_${randomBytes(5).toString('hex')}`;
const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${dbName}`);
// BENCH_LOG_STATEMENTS=1: PostgreSQL logs every statement on the bench database (its server log),
// to count statements per post by kind.
if (process.env.BENCH_LOG_STATEMENTS === '1')
  await admin.unsafe(`alter database ${dbName} set log_statement = 'all'`);
const dbUrl = new URL(SERVER_URL);
dbUrl.pathname = `/${dbName}`;

const sandbox = await startSandbox();
const workers: ChildProcess[] = [];
let api: Service | null = null;
let longTx: ReturnType<typeof postgres> | null = null;
let longTxRelease: (() => Promise<void>) | null = null;
try {
  if (LATENCY_MS > 0) sandbox.platformA.faults.latency(LATENCY_MS, 'createPost');
  const port = await freePort();
  const vaultKey = randomBytes(32).toString('base64');
  const env = {
    DATABASE_URL: dbUrl.toString(),
    KIT_VAULT_KEY: vaultKey,
    ...sandbox.platformA.env(`http://127.0.0.1:${port}/v1/channels/platformA/callback`),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    PUBLISH_CONCURRENCY: String(CONCURRENCY),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
  };
  api = await startService(
    configWith({ ...env, KIT_ROLE: 'api', PORT: String(port), RATE_LIMIT_REQUESTS_PER_MIN: '1000000' }),
  );
  const base = api.url!;

  // An account and its channels, each a different member connected through the sandbox's
  // OAuth consent, as members would (BENCH_CHANNELS; a burst at the top of the hour is many
  // people's posts, not one person's thousands).
  const { apiKey, account } = await json(`${base}/v1/account`, {
    method: 'POST',
    body: JSON.stringify({ email: `bench-${Date.now()}@example.com` }),
  });
  const auth = { authorization: `Bearer ${apiKey}` };
  const channels: { id: string; platformUserId: string }[] = [];
  for (let c = 0; c < CHANNELS; c++) {
    if (c > 0) sandbox.platformA.state.useMember(sandbox.platformA.state.addMember().sub);
    const { url: consentUrl } = await json(`${base}/v1/channels/platformA/connect`, {
      method: 'POST',
      headers: auth,
    });
    const consent = await fetch(consentUrl, { redirect: 'manual' });
    channels.push((await json(consent.headers.get('location')!)).channel);
  }
  const authors = new Set(channels.map((c) => `urn:li:person:${c.platformUserId}`));

  for (let i = 0; i < WORKERS; i++) workers.push(await spawnWorker({ ...env, KIT_ROLE: 'worker' }));

  // The first due time is far enough ahead that every batch is stored before it; the rest are
  // spread evenly over SPREAD_MS after it (0: all at once).
  const runAt =
    Date.now() + Number(process.env.BENCH_LEAD_MS ?? 3_000 + (TOTAL + WARMUP) * 2 + (WARMUP ? 3_000 : 0));
  const dueAt = (i: number) => runAt + Math.floor((i * SPREAD_MS) / TOTAL);
  /** Schedules `count` posts in bulk requests of 100, round the channels; their ids. */
  const schedule = async (count: number, label: string, dueOf: (i: number) => number) => {
    const scheduled: string[] = [];
    for (let start = 0; start < count; start += 100) {
      const items = Array.from({ length: Math.min(100, count - start) }, (_, i) => ({
        text: `${label} ${start + i}`,
        runAt: dueOf(start + i),
        channelId: channels[(start + i) % CHANNELS]!.id,
      }));
      const res = await json(`${base}/v1/posts/bulk-schedule`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ items }),
      });
      scheduled.push(...res.posts.map((p: { id: string }) => p.id));
    }
    return scheduled;
  };
  // BENCH_WARMUP_POSTS: posts due a few seconds before the burst and left out of every figure,
  // so the burst meets workers that have published before, as a worker running for hours does.
  await schedule(WARMUP, 'Warm-up post', () => runAt - 2_500);
  const ids = await schedule(TOTAL, 'Bench post', dueAt);
  if (Date.now() >= runAt) throw new Error('scheduling took longer than the lead time; raise it');
  if (LONG_TRANSACTION) {
    // Its snapshot keeps every row version the burst makes alive until the end.
    longTx = postgres(dbUrl.toString(), { max: 1, onnotice: () => {} });
    const reserved = await longTx.reserve();
    await reserved`begin isolation level repeatable read`;
    await reserved`select count(*) from posts`;
    longTxRelease = async () => {
      await reserved`rollback`;
      reserved.release();
    };
  }
  const when = SPREAD_MS > 0 ? `due within ${SPREAD_MS / 1000} s` : 'due at once';
  console.log(
    `bench/publish: ${TOTAL} posts ${when}, ${WORKERS} workers x ${CONCURRENCY} in flight${LONG_TRANSACTION ? ', a transaction held open throughout' : ''}`,
  );

  const db = api.deps.db;
  await new Promise((r) => setTimeout(r, Math.max(0, runAt - Date.now() - 50)));
  const writesBefore = await writesNow(admin, dbName);
  const updatesBefore = await postsUpdatesNow(db);
  const cpuBefore = await cpuNow(admin, dbName, workers);
  const benchCpuBefore = process.cpuUsage();
  const deadline = runAt + 10 * 60_000;
  // Watching should cost the machine the workers run on as little as possible: one poll a
  // second. A poll reads the account's posts until one is not done, which with 20,000 posts
  // mostly published is milliseconds of PostgreSQL; at ten polls a second it took CPU from the
  // burst it measures. Lateness and throughput come from each post's publishedAt, not from when
  // the watcher notices the end.
  for (;;) {
    await new Promise((r) => setTimeout(r, 1_000));
    // On an overloaded machine the database may be refused for a moment (the resilient driver
    // fails fast): the watcher looks again rather than abandon the run.
    const pending = await db
      .select({ id: posts.id })
      .from(posts)
      .where(and(eq(posts.accountId, account.id), notInArray(posts.status, ['published', 'failed'])))
      .limit(1)
      .catch(() => [{ id: 'unknown' }]);
    if (pending.length === 0) break;
    if (Date.now() > deadline) throw new Error('posts still pending after 10 minutes');
  }

  const cpuAfter = await cpuNow(admin, dbName, workers);
  const benchCpu = process.cpuUsage(benchCpuBefore);
  await new Promise((r) => setTimeout(r, 11_000));
  const writesAfter = await writesNow(admin, dbName);
  const updatesAfter = await postsUpdatesNow(db);
  const rows = await db.select().from(posts).where(inArray(posts.id, ids));
  const published = rows.filter((r) => r.status === 'published');
  const failed = rows.length - published.length;
  const lateness = published.map((r) => r.publishedAt! - r.scheduledFor!).sort((a, b) => a - b);
  await longTxRelease?.();
  const last = Math.max(...published.map((r) => r.publishedAt!));
  const throughput = published.length / (Math.max(1, last - runAt) / 1000);
  const onPlatform = [...authors]
    .flatMap((author) => sandbox.platformA.state.listPosts({ author }))
    .filter((p) => p.text.startsWith('Bench post '));
  const duplicates = onPlatform.length - new Set(onPlatform.map((p) => p.text)).size;
  const byWorker = new Map<string, number>();
  for (const r of published) {
    const pid = r.claimedBy!.split('-')[0]!;
    byWorker.set(pid, (byWorker.get(pid) ?? 0) + 1);
  }

  const backendCpu = [...cpuAfter.backends].reduce(
    (sum, [pid, cpu]) => sum + cpu - (cpuBefore.backends.get(pid) ?? 0),
    0,
  );
  const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000 / TOTAL;
  const perPost = {
    sandboxCpuMs: cpuMs(benchCpu),
    workerCpuMs: ((cpuAfter.workers - cpuBefore.workers) * 1000) / TOTAL,
    workerSystemCpuMs: ((cpuAfter.workersSystem - cpuBefore.workersSystem) * 1000) / TOTAL,
    postgresCpuMs: (backendCpu * 1000) / TOTAL,
    commits: (writesAfter.commits - writesBefore.commits) / TOTAL,
    rowsWritten: (writesAfter.rows - writesBefore.rows) / TOTAL,
    postUpdates: (updatesAfter.updates - updatesBefore.updates) / TOTAL,
    hotUpdates: (updatesAfter.hot - updatesBefore.hot) / TOTAL,
    tableBytes: (updatesAfter.tableBytes - updatesBefore.tableBytes) / TOTAL,
    indexBytes: (updatesAfter.indexBytes - updatesBefore.indexBytes) / TOTAL,
  };
  const baselineCpuBefore = process.cpuUsage();
  const direct = await baseline(sandbox);
  const baselineCpu = process.cpuUsage(baselineCpuBefore);
  const ratio = throughput / direct;
  console.log(`  platform latency  ${LATENCY_MS} ms per create (sandbox)`);
  console.log(`  channels          ${CHANNELS} (one member each)`);
  console.log(`  backends          PostgreSQL${process.env.REDIS_URL ? ' + Redis' : ''}`);
  console.log(
    `  published         ${published.length} (failed ${failed}), per worker ${[...byWorker.values()].join(' / ')}`,
  );
  console.log(`  throughput        ${fmt(throughput, 1)} posts/s from runAt to the last publish`);
  console.log(
    `  lateness          p50 ${percentile(lateness, 50)} ms, p99 ${percentile(lateness, 99)} ms, max ${lateness.at(-1)} ms after each post's due time`,
  );
  console.log(
    `  duplicates        ${duplicates} (platform posts ${onPlatform.length} for ${TOTAL} scheduled)`,
  );
  console.log(
    `  baseline          ${fmt(direct, 1)} creates/s straight through the adapter, same concurrency`,
  );
  console.log(`  ratio             ${ratio.toFixed(2)} of the bare adapter's throughput`);
  console.log(
    `  baseline cost     ${cpuMs(baselineCpu).toFixed(2)} ms CPU per create (adapter and sandbox, one process)`,
  );
  console.log(
    `  cost per post     ${perPost.sandboxCpuMs.toFixed(2)} ms sandbox + API CPU, ${perPost.workerCpuMs.toFixed(2)} ms worker CPU (${perPost.workerSystemCpuMs.toFixed(2)} of it in the kernel), ${perPost.postgresCpuMs.toFixed(2)} ms PostgreSQL CPU, ${perPost.commits.toFixed(2)} transactions, ${perPost.rowsWritten.toFixed(2)} rows written (CPU from runAt to the end, seen within a second)`,
  );
  console.log(
    `  posts updates     ${perPost.postUpdates.toFixed(2)} per post, ${perPost.hotUpdates.toFixed(2)} of them HOT (no index entries written); the table grew ${perPost.tableBytes.toFixed(0)} and its indexes ${perPost.indexBytes.toFixed(0)} bytes per post`,
  );
  console.log(
    `  load average      ${loadAtStart} at the start, ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} at the end (1, 5, 15 min; ${cpus().length} cores, shared with PostgreSQL and the sandbox)`,
  );
  report('publish', {
    posts: TOTAL,
    workers: WORKERS,
    channels: CHANNELS,
    spreadMs: SPREAD_MS,
    longTransaction: LONG_TRANSACTION,
    redis: Boolean(process.env.REDIS_URL),
    concurrencyPerWorker: CONCURRENCY,
    platformLatencyMs: LATENCY_MS,
    published: published.length,
    failed,
    throughputPerSec: Number(throughput.toFixed(1)),
    latenessP50Ms: percentile(lateness, 50),
    latenessP99Ms: percentile(lateness, 99),
    latenessMaxMs: lateness.at(-1) ?? null,
    duplicates,
    baselinePerSec: Number(direct.toFixed(1)),
    ratio: Number(ratio.toFixed(3)),
    workerCpuMsPerPost: Number(perPost.workerCpuMs.toFixed(3)),
    workerSystemCpuMsPerPost: Number(perPost.workerSystemCpuMs.toFixed(3)),
    postgresCpuMsPerPost: Number(perPost.postgresCpuMs.toFixed(3)),
    commitsPerPost: Number(perPost.commits.toFixed(3)),
    rowsWrittenPerPost: Number(perPost.rowsWritten.toFixed(3)),
    postUpdatesPerPost: Number(perPost.postUpdates.toFixed(3)),
    hotUpdatesPerPost: Number(perPost.hotUpdates.toFixed(3)),
    tableBytesPerPost: Math.round(perPost.tableBytes),
    indexBytesPerPost: Math.round(perPost.indexBytes),
    sandboxCpuMsPerPost: Number(perPost.sandboxCpuMs.toFixed(3)),
    baselineCpuMsPerCreate: Number(cpuMs(baselineCpu).toFixed(3)),
    loadAverage: loadavg()[0],
  });
  if (duplicates !== 0 || failed !== 0) process.exitCode = 1;
} finally {
  for (const w of workers) w.kill('SIGTERM');
  await Promise.all(
    workers.map((w) => new Promise((r) => (w.exitCode === null ? w.once('exit', r) : r(null)))),
  );
  await longTxRelease?.().catch(() => {});
  await longTx?.end();
  await api?.close();
  await sandbox.close();
  await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {});
  await admin.end();
}

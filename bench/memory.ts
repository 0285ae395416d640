import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fmt, NODE, report } from './lib.ts';

/**
 * bench/memory: resident memory of the service as `npm start` runs it on the embedded defaults
 * (PGlite in a fresh DATA_DIR, in-process store, offline engine, the console), from spawn
 * through 1,000 mixed requests to idle, beside a bare PGlite instance and a bare Node process
 * doing nothing, measured in the same run. RSS comes from /proc/<pid>/status: VmHWM (the
 * kernel's own high-water mark, so no spike between samples is missed) and VmRSS (sampled).
 * Targets (issue 17): peak < 400 MB, idle < 250 MB.
 */
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1_000);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 15);
const CONCURRENCY = 8;
const MB = 1024;

function status(pid: number): { rssMb: number; hwmMb: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
    return { rssMb: kb('VmRSS') / MB, hwmMb: kb('VmHWM') / MB };
  } catch {
    return null;
  }
}

/** Samples a process's RSS every 20 ms, tagging each sample with the phase it was taken in. */
function sampler(pid: number) {
  const samples: { phase: string; rssMb: number; at: number }[] = [];
  let phase = 'start';
  const timer = setInterval(() => {
    const s = status(pid);
    if (s) samples.push({ phase, rssMb: s.rssMb, at: Date.now() });
  }, 20);
  return {
    set phase(p: string) {
      phase = p;
    },
    hwm: () => status(pid)?.hwmMb ?? Number.NaN,
    rss: () => status(pid)?.rssMb ?? Number.NaN,
    /** Median RSS of the phase's last `ms`. */
    settled(p: string, ms: number) {
      const of = samples.filter((s) => s.phase === p);
      const last = of.at(-1)?.at ?? 0;
      const tail = of.filter((s) => s.at >= last - ms).map((s) => s.rssMb);
      return tail.sort((a, b) => a - b)[Math.floor(tail.length / 2)] ?? Number.NaN;
    },
    stop: () => clearInterval(timer),
  };
}

function spawnNode(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; output: () => string } {
  const child = spawn(NODE, args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  process.on('exit', () => child.kill('SIGKILL'));
  return { child, output: () => out };
}

async function waitFor(output: () => string, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  for (let i = 0; i < 1_200; i++) {
    const match = pattern.exec(output());
    if (match) return match;
    await sleep(50);
  }
  throw new Error(`${what} did not start:\n${output()}`);
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/**
 * A mix a new user's first minutes look like: keys, posts, scoring, the console, the docs, and
 * offline plans and drafts (which load the POS tagger, src/scoring/text/tagger.ts). Their briefs
 * vary with the request, so the cache does not answer them.
 */
async function mixedRequests(
  url: string,
  n: number,
): Promise<{ ok: number; failed: Record<string, number> }> {
  const json = { 'content-type': 'application/json' };
  const keys: string[] = [];
  for (let a = 0; a < 4; a++) {
    const res = await fetch(`${url}/v1/account`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: `memory-${a}-${Date.now()}@example.com` }),
    });
    const { apiKey } = (await res.json()) as { apiKey: string };
    keys.push(apiKey);
    for (let k = 0; k < 3; k++) {
      const more = await fetch(`${url}/v1/keys`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ name: `k${k}` }),
      });
      keys.push(((await more.json()) as { apiKey: string }).apiKey);
    }
  }
  const text = (i: number) =>
    `Post ${i}: three things we learned shipping a scheduler.\n\nFirst, measure before tuning. Second, keep the hot path small. Third, write it down. #engineering`;
  const brief = (i: number) =>
    i % 2
      ? `A small bakery in Lisbon that teaches sourdough classes to ${i} students a month; we want more class bookings.`
      : `We cut our cloud bill by ${i % 90}% in three months by deleting unused staging environments and moving batch jobs to spot instances.`;
  const mix: ((i: number) => [string, string, unknown?])[] = [
    () => ['GET', '/v1/account'],
    () => ['GET', '/v1/account'],
    () => ['GET', '/v1/posts?limit=20'],
    (i) => ['POST', '/v1/posts', { text: text(i) }],
    (i) => ['POST', '/v1/score', { post: text(i) }],
    (i) => ['POST', '/v1/posts/validate', { post: text(i) }],
    () => ['GET', '/v1/meta'],
    () => ['GET', '/v1/health'],
    () => ['GET', '/'],
    () => ['GET', '/v1/brands'],
    (i) => (i % 3 === 0 ? ['POST', '/v1/rewrite', { post: text(i) }] : ['GET', '/docs']),
    () => ['GET', '/v1/openapi.json'],
    (i) => ['POST', '/v1/plan', { brief: brief(i), platform: 'platformA', cadence: '3x-week', count: 4 }],
    (i) => ['POST', '/v1/generate', { brief: brief(i), platform: 'platformA', count: 2 }],
  ];
  let ok = 0;
  const failed: Record<string, number> = {};
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      const [method, path, body] = mix[i % mix.length]!(i);
      const res = await fetch(url + path, {
        method,
        headers: { ...(body ? json : {}), authorization: `Bearer ${keys[i % keys.length]}` },
        body: body ? JSON.stringify(body) : undefined,
      });
      await res.arrayBuffer();
      if (res.ok) ok++;
      else {
        const what = `${method} ${path.split('?')[0]} ${res.status}`;
        failed[what] = (failed[what] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { ok, failed };
}

/** The service as `npm start` runs it (defaults but its own DATA_DIR and port). */
async function measureService(dataDir: string) {
  const started = Date.now();
  const svc = spawnNode(['src/main.ts'], { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' });
  const s = sampler(svc.child.pid!);
  try {
    const [, url] = await waitFor(svc.output, /postkit listening on (http:\/\/\S+)/, 'postkit');
    const startupMs = Date.now() - started;
    const startupPeakMb = s.hwm();
    const startupRssMb = s.rss();
    s.phase = 'load';
    const loadStarted = Date.now();
    const result = await mixedRequests(url!, REQUESTS);
    const loadMs = Date.now() - loadStarted;
    const peakMb = s.hwm();
    s.phase = 'idle';
    await sleep(IDLE_SECONDS * 1_000);
    const idleMb = s.settled('idle', 5_000);
    return { startupMs, startupPeakMb, startupRssMb, peakMb, idleMb, loadMs, ...result };
  } finally {
    s.stop();
    await stop(svc.child);
  }
}

/** A process that opens PGlite on a fresh directory (as the service does) and then does nothing. */
async function measureIdle(args: string[], ready: RegExp, what: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'postkit-memory-bare-'));
  const p = spawnNode([...args, dataDir], {});
  const s = sampler(p.child.pid!);
  try {
    await waitFor(p.output, ready, what);
    s.phase = 'idle';
    await sleep(Math.min(IDLE_SECONDS, 8) * 1_000);
    return { peakMb: s.hwm(), idleMb: s.settled('idle', 3_000) };
  } finally {
    s.stop();
    await stop(p.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// A first start (a new DATA_DIR: the database is created), then a second on the same directory.
const dataDir = mkdtempSync(join(tmpdir(), 'postkit-memory-'));
const first = await measureService(dataDir);
const second = await measureService(dataDir);
rmSync(dataDir, { recursive: true, force: true });
const pglite = await measureIdle(['bench/memory-bare-pglite.ts'], /bare pglite ready/, 'bare PGlite');
const node = await measureIdle(
  ['-e', 'console.log("bare node ready"); setInterval(() => {}, 60000)'],
  /bare node ready/,
  'bare Node',
);
const mb = (n: number) => `${fmt(n)} MB`;
console.log('bench/memory (embedded defaults: PGlite in DATA_DIR, in-process store, offline engine)');
for (const [label, run] of [
  ['first start, new DATA_DIR', first],
  ['second start, same DATA_DIR', second],
] as const) {
  console.log(`  service, ${label}`);
  console.log(
    `    start-up peak ${mb(run.startupPeakMb)} (listening after ${fmt(run.startupMs)} ms, RSS then ${mb(run.startupRssMb)})`,
  );
  console.log(
    `    peak through ${fmt(REQUESTS)} mixed requests ${mb(run.peakMb)} (target < 400 MB; ${run.ok} ok in ${fmt(run.loadMs)} ms)`,
  );
  console.log(`    idle ${IDLE_SECONDS} s later ${mb(run.idleMb)} (target < 250 MB)`);
  if (Object.keys(run.failed).length)
    console.log(`    WARNING: failed requests ${JSON.stringify(run.failed)}`);
}
console.log(
  `  bare PGlite, new directory, doing nothing   peak ${mb(pglite.peakMb)}, idle ${mb(pglite.idleMb)}`,
);
console.log(`  bare Node, doing nothing                    peak ${mb(node.peakMb)}, idle ${mb(node.idleMb)}`);
report('memory', {
  requests: REQUESTS,
  startupPeakMb: Math.round(first.startupPeakMb),
  peakMb: Math.round(first.peakMb),
  idleMb: Math.round(first.idleMb),
  startupMs: first.startupMs,
  okRequests: first.ok,
  secondStartPeakMb: Math.round(second.peakMb),
  secondStartIdleMb: Math.round(second.idleMb),
  barePglitePeakMb: Math.round(pglite.peakMb),
  barePgliteIdleMb: Math.round(pglite.idleMb),
  bareNodeIdleMb: Math.round(node.idleMb),
});
process.exit(0);

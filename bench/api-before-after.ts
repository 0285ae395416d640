import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { NODE } from './lib.ts';

/**
 * Two versions of the API in the same run: bare Fastify, the API from another checkout
 * (BEFORE: a directory holding that commit's src/, packages/ and package.json, with
 * node_modules linked, e.g. `git archive <commit> src packages package.json | tar -x -C dir`)
 * and this checkout's API, loaded in alternating rounds with GET /v1/account (key cache). On a
 * machine shared with other work only such same-run comparisons say whether a change helped.
 * Prints each side's median throughput, ratio to bare Fastify and CPU time per request.
 * Uses DATABASE_URL / REDIS_URL when set.
 */
const before = process.env.BEFORE;
if (!before) throw new Error('set BEFORE to the directory of the version to compare with');
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);

async function start(cwd: string, script: string, env: Record<string, string | undefined>) {
  const child = spawn(NODE, [script], {
    cwd,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const seen = (d: Buffer) => {
      out += d;
      const m = /"url":"(http:\/\/[^"]+)"|listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve((m[1] ?? m[2])!);
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.on('exit', (code) => reject(new Error(`${script} exited ${code}: ${out}`)));
  });
  return { child, url };
}

async function api(cwd: string) {
  const s = await start(cwd, 'src/main.ts', {
    PORT: '0',
    DATABASE_URL: process.env.DATABASE_URL ?? 'memory://',
    REDIS_URL: process.env.REDIS_URL,
    RATE_LIMIT_REQUESTS_PER_MIN: '100000000',
    RATE_LIMIT_SIGNUPS_PER_HOUR: '100000000',
    AUTH_CACHE_TTL_MS: '5000',
    KIT_ROLE: 'api',
  });
  const signup = await fetch(`${s.url}/v1/account`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `compare-${Date.now()}-${Math.random()}@example.com` }),
  });
  const { apiKey } = (await signup.json()) as { apiKey: string };
  return { ...s, headers: { authorization: `Bearer ${apiKey}` } as Record<string, string> };
}

const targets: Record<string, { child: ChildProcess; url: string; headers: Record<string, string> }> = {
  bare: { ...(await start(process.cwd(), 'bench/baseline-server.ts', {})), headers: {} },
  before: await api(before),
  now: await api(process.cwd()),
};
const cpuMicros = (c: ChildProcess) => {
  const f = readFileSync(`/proc/${c.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10_000;
};
const results: Record<string, { rps: number[]; us: number[] }> = {};
try {
  for (const [name, t] of Object.entries(targets)) {
    results[name] = { rps: [], us: [] };
    await autocannon({ url: `${t.url}/v1/account`, headers: t.headers, duration: 2, connections: 20 });
  }
  for (let r = 0; r < rounds; r++)
    for (const [name, t] of Object.entries(targets)) {
      const cpu = cpuMicros(t.child);
      const a = await autocannon({
        url: `${t.url}/v1/account`,
        headers: t.headers,
        duration: seconds,
        connections: 20,
      });
      if (a.non2xx || a.errors) throw new Error(`${name}: ${a.non2xx} non-2xx, ${a.errors} errors`);
      results[name]!.rps.push(a.requests.average);
      results[name]!.us.push((cpuMicros(t.child) - cpu) / (a.requests.average * seconds));
    }
} finally {
  for (const t of Object.values(targets)) t.child.kill('SIGTERM');
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
for (const name of Object.keys(targets)) {
  const ratios = results[name]!.rps.map((x, i) => (x / results.bare!.rps[i]!).toFixed(2));
  console.log(
    `${name.padEnd(7)} ${median(results[name]!.rps).toFixed(0).padStart(7)} req/s  CPU ${median(results[name]!.us).toFixed(1)} µs/request  ratio to bare per round ${ratios.join(' ')}`,
  );
}

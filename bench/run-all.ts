import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { NODE } from './lib.ts';

/**
 * `npm run bench`: runs every benchmark in turn (one at a time, so they do not compete for the
 * two cores) and writes docs/performance.md with their own printed figures and the machine.
 * PostgreSQL and Redis come from DATABASE_URL / REDIS_URL, defaulting to the local servers.
 */
const env = {
  ...process.env,
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
};
const benches = [
  [
    'api',
    'bench/api.ts',
    'Authenticated `GET /v1/account` against a bare Fastify route (target ratio >= 0.6)',
  ],
  ['score', 'bench/score.ts', 'Rules-engine throughput and cache-hit `POST /v1/score` against a bare route'],
  [
    'personal',
    'bench/personal.ts',
    'Personal-model fit for 100 and 1,000 history posts, and personalised scoring beside the global score',
  ],
  ['publish', 'bench/publish.ts', '2,000 posts due at once, two workers on PostgreSQL, against the sandbox'],
  [
    'publish-recovery',
    'bench/publish-recovery.ts',
    'List requests and time to settle 100 creates in doubt under 1,000 later posts: one listing per channel against one per post',
  ],
  [
    'statement-reuse',
    'bench/statement-reuse.ts',
    'CPU per outcome statement of the publish path, built once (now) against built on every call (before)',
  ],
  ['webhooks', 'bench/webhooks.ts', '5,000 events delivered to a local receiver'],
  [
    'queue',
    'bench/queue.ts',
    'Queue assignment time for 10,000 `queue: true` posts on one channel, against creates with runAt',
  ],
  [
    'memory',
    'bench/memory.ts',
    'Resident memory of `npm start` on the embedded defaults through 1,000 mixed requests, beside a bare PGlite (targets: peak < 400 MB, idle < 250 MB)',
  ],
] as const;

function run(script: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE, [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      output += d;
      process.stderr.write(d);
    });
    child.on('exit', (code) => resolve({ code, output }));
  });
}

const sections: string[] = [];
let failed = false;
for (const [name, script, what] of benches) {
  if (!existsSync(script)) {
    sections.push(`## ${name}\n\n${what}\n\nNot present in this checkout.\n`);
    continue;
  }
  console.log(`\n== ${name}`);
  const { code, output } = await run(script);
  if (code !== 0) failed = true;
  const lines = output
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('BENCH_RESULT') && !l.includes('"level"'));
  const result = output.split('\n').find((l) => l.startsWith('BENCH_RESULT'));
  sections.push(
    `## ${name}\n\n${what}. \`node ${script}\`${code === 0 ? '' : ` (exited ${code})`}\n\n\`\`\`\n${lines.join('\n')}\n\`\`\`\n` +
      (result ? `\nRaw: \`${result.slice('BENCH_RESULT '.length)}\`\n` : ''),
  );
}

const cpu = cpus();
const doc = `# Performance

Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}. Every figure below was
measured in one run of the script named, against a baseline measured in the same run where a
ratio is given; nothing here comes from a timed test.

Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB,
Node ${process.version}; PostgreSQL and Redis on the same machine (loopback), load generator
(autocannon) on the same cores as the service, so absolute numbers understate a real deployment
and the ratios are the meaningful part. What the figures mean, and where the time goes:
[performance-notes.md](performance-notes.md).

${sections.join('\n')}`;
writeFileSync('docs/performance.md', doc);
console.log('\nwrote docs/performance.md');
process.exit(failed ? 1 : 0);

import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';

/** Shared plumbing for the benchmarks: child processes on loopback and autocannon runs. */
export const NODE = join(process.cwd(), 'node_modules', '.bin', 'node');

/** Children still running when the benchmark exits (even by an error) are stopped with it. */
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

export interface Child {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a script that logs a line containing `"url":"http://…"` or `listening on http://…`. */
export async function startChild(
  script: string,
  env: Record<string, string | undefined>,
  args: string[] = [],
): Promise<Child> {
  const child = spawn(NODE, [script, ...args], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${output}`)), 60_000);
    const check = () => {
      const match = /"url":"(http:\/\/[^"]+)"|listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve((match[1] ?? match[2])!);
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.on('exit', (code) => reject(new Error(`${script} exited ${code}:\n${output}`)));
  });
  return {
    url,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export async function load(
  url: string,
  options: {
    headers?: Record<string, string>;
    method?: string;
    body?: string;
    seconds?: number;
    connections?: number;
  },
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    method: (options.method ?? 'GET') as 'GET',
    headers: options.headers,
    body: options.body,
    duration: options.seconds ?? 10,
    connections: options.connections ?? 20,
    pipelining: 1,
  });
  return {
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** The last line a benchmark prints, collected by bench/run-all.ts into docs/performance.md. */
export function report(name: string, figures: Record<string, unknown>) {
  console.log(`BENCH_RESULT ${JSON.stringify({ name, ...figures })}`);
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { TestResponse } from './app.ts';

/**
 * Real service processes (`src/main.ts` under the pinned Node) for multi-process and crash
 * tests: start one with a role and an environment, wait for its startup line, send it HTTP,
 * kill it with any signal, and read what it printed. Every process started here is killed
 * when the test process exits, whatever happened.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const NODE = resolve(ROOT, 'node_modules/.bin/node');

export type Role = 'api' | 'worker' | 'all';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServiceProcess {
  role: Role;
  pid: number;
  /** e.g. http://127.0.0.1:41234 for `api` and `all`; null for `worker`. */
  url: string | null;
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Settles when the process has exited. */
  exited: Promise<Exit>;
  /** Sends the signal and waits for the exit (at once if it already exited). */
  kill(signal?: NodeJS.Signals): Promise<Exit>;
  /** HTTP against the process (api/all), like TestApp.request. */
  request(
    method: string,
    path: string,
    options?: { key?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<TestResponse>;
}

const running = new Set<ServiceProcess>();
process.on('exit', () => {
  for (const p of running) p.child.kill('SIGKILL');
});

const READY = /postkit listening on (http:\/\/\S+)|postkit worker started/;

/**
 * Starts `src/main.ts` with `KIT_ROLE=role` on 127.0.0.1, port 0, and resolves once it prints
 * `postkit listening on …` (api, all) or `postkit worker started` (worker). Rejects with the
 * output if it exits first or is not ready within `startTimeoutMs`.
 */
export async function spawnService(
  role: Role,
  env: Record<string, string | undefined>,
  options: { startTimeoutMs?: number } = {},
): Promise<ServiceProcess> {
  const child = spawn(NODE, ['src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      ...env,
      KIT_ROLE: role,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<Exit>((done) => child.once('exit', (code, signal) => done({ code, signal })));

  const url = await new Promise<string | null>((ready, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${role} process not ready within ${options.startTimeoutMs ?? 60_000} ms:\n${out}`));
    }, options.startTimeoutMs ?? 60_000);
    const check = () => {
      const match = READY.exec(out);
      if (!match) return;
      clearTimeout(timer);
      ready(match[1] ?? null);
    };
    child.stdout!.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      fail(new Error(`${role} process exited (${code ?? signal}) before it was ready:\n${out}`));
    });
  });

  const proc: ServiceProcess = {
    role,
    pid: child.pid!,
    url,
    child,
    output: () => out,
    exited,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    request: (method, path, opts = {}) => {
      if (!url) throw new Error('a worker process serves no HTTP');
      return httpRequest(url, method, path, opts);
    },
  };
  running.add(proc);
  void exited.then(() => running.delete(proc));
  return proc;
}

/** Kills every process this helper started and still running (SIGKILL unless told). */
export async function killAll(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  await Promise.all([...running].map((p) => p.kill(signal)));
}

/** One HTTP request with an optional bearer key and JSON body; parses JSON answers. */
export async function httpRequest(
  baseUrl: string,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(baseUrl + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed, text };
}

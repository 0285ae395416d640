import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * A service started by a parent with stdout and stderr on pipes keeps its promise to stop on
 * SIGTERM when the reader of those pipes is gone (the parent exited) or stops reading (a stuck
 * log shipper): logging never blocks shutdown and a failed log write is never fatal.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const NODE = resolve(ROOT, 'node_modules/.bin/node');
const GRACE_MS = 3_000;

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** Starts `src/main.ts` on an in-memory database, logging every request, and waits for its URL. */
async function startLoggingService(): Promise<{
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}> {
  const child = spawn(NODE, ['src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'debug',
      DATABASE_URL: 'memory://',
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let out = '';
  const url = await new Promise<string>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`not ready:\n${out}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /postkit listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        ready(match[1]!);
      }
    });
    void exited.then((code) => fail(new Error(`exited ${code} before ready:\n${out}`)));
  });
  return { child, url, exited };
}

/** Requests that each write log lines (request, response, 404). */
async function makeLogTraffic(url: string, count: number) {
  let answered = 0;
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${url}/v1/no-such-route-${'x'.repeat(150)}-${i}`).catch(() => null);
    if (res) {
      await res.text();
      answered++;
    }
  }
  return answered;
}

async function timeToExit(child: ChildProcess, exited: Promise<number | null>) {
  const started = Date.now();
  child.kill('SIGTERM');
  const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 15_000))]);
  return { code, ms: Date.now() - started };
}

describe('SIGTERM with a log pipe nobody reads', () => {
  it('exits within the grace period after the pipes lose their reader, and keeps serving until then', async () => {
    const { child, url, exited } = await startLoggingService();
    // The parent goes away: its ends of the pipes close, so every log write now fails (EPIPE).
    child.stdout!.destroy();
    child.stderr!.destroy();
    expect(await makeLogTraffic(url, 50)).toBe(50);
    const { code, ms } = await timeToExit(child, exited);
    expect(code).toBe(0);
    expect(ms).toBeLessThan(GRACE_MS + 1_000);
  }, 90_000);

  it('exits within the grace period when the reader is alive but stopped reading (full pipe)', async () => {
    const { child, url, exited } = await startLoggingService();
    child.stdout!.pause();
    child.stderr!.pause();
    // Far more than a pipe buffer (64 KiB) of log lines.
    expect(await makeLogTraffic(url, 400)).toBe(400);
    const { code, ms } = await timeToExit(child, exited);
    expect(code).not.toBe('hung');
    expect(ms).toBeLessThan(GRACE_MS + 1_000);
  }, 120_000);
});

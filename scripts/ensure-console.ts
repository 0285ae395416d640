import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds the web console (web/ -> web/dist) when it is missing or older than its sources, so
 * `npm install && npm start` serves it on a fresh clone. Runs before `npm start` and `npm run
 * demo`; the server itself never loads the build toolchain. Without Vite (a production install
 * with --omit=dev) it says so and lets the API start without the console.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCES = ['web/src', 'web/index.html', 'web/vite.config.ts', 'packages/client/src'];
const BUILT = join(ROOT, 'web/dist/index.html');
/** A build holding the lock longer than this belongs to a process that died. */
const STALE_LOCK_MS = 180_000;
const LOCK = join(
  tmpdir(),
  `postkit-console-build-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}`,
);

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

function upToDate(): boolean {
  const sources = Math.max(...SOURCES.map((s) => newest(join(ROOT, s))));
  return existsSync(BUILT) && statSync(BUILT).mtimeMs >= sources;
}

function sleep(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * True when web/dist is up to date (or was just built). Several processes (parallel test files,
 * a start during a test run) build one at a time: the others wait and reuse its output.
 */
export function ensureConsoleBuilt(
  log: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): boolean {
  if (upToDate()) return true;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      const stale = existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS;
      if (stale) rmSync(LOCK, { recursive: true, force: true });
      else sleep(250);
    }
  }
  try {
    return upToDate() || build(log);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

function build(log: (line: string) => void): boolean {
  const vite = join(ROOT, 'node_modules/.bin/vite');
  if (!existsSync(vite)) {
    log(
      'console: web/dist is missing or stale and Vite is not installed (npm install without --omit=dev builds it); starting without it',
    );
    return false;
  }
  log('console: building web/ (once; later starts reuse web/dist)…');
  const result = spawnSync(vite, ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    log('console: the build failed (see above); the API starts without the console');
    return false;
  }
  log('console: built web/dist');
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) ensureConsoleBuilt();

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/**
 * A data directory as PGlite's initdb leaves it, made by `node scripts/pglite-seed.ts`. Without
 * it, a new embedded database runs initdb in a second PGlite instance, and that alone peaks at
 * over 600 MB of resident memory (the second instance plus a copy of its whole memory). The
 * seed holds only what initdb writes (no Postkit schema: the migrations run as usual), so it
 * changes only with PGlite's version; a seed made by another version is ignored and initdb runs.
 */
const SEED_DIR = fileURLToPath(new URL('./pglite-seed/', import.meta.url));
export const SEED_FILE = join(SEED_DIR, 'data.tar.gz');
export const SEED_INFO = join(SEED_DIR, 'seed.json');

/** The installed PGlite's version, from its package.json. */
export function installedPgliteVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The gzipped seed, when there is one made by the installed PGlite. */
export function usableSeed(): Buffer | undefined {
  if (!existsSync(SEED_FILE) || !existsSync(SEED_INFO)) return undefined;
  const info = JSON.parse(readFileSync(SEED_INFO, 'utf8')) as { pgliteVersion?: string };
  return info.pgliteVersion === installedPgliteVersion() ? readFileSync(SEED_FILE) : undefined;
}

const field = (block: Buffer, at: number, length: number) =>
  block
    .subarray(at, at + length)
    .toString('utf8')
    .replace(/\0.*$/s, '');

/**
 * Writes the seed's files (`gz`, the committed seed by default) into `dir` (empty, no PG_VERSION
 * yet); false when there is no usable seed. Done here rather than through PGlite's `loadDataDir`, which unpacks in memory and left
 * the process 50 MB larger for good. The archive holds directories and regular files only.
 */
export function plantSeed(dir: string, gz: Buffer | undefined = usableSeed()): boolean {
  if (!gz) return false;
  const tar = gunzipSync(gz);
  const root = resolve(dir);
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    const name = field(header, 0, 100);
    if (!name) break;
    const prefix = field(header, 345, 155);
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = field(header, 156, 1) || '0';
    const target = resolve(root, `.${sep}${prefix ? `${prefix}/` : ''}${name}`);
    if (target !== root && !target.startsWith(root + sep))
      throw new Error(`seed entry outside the data directory: ${name}`);
    at += 512;
    if (type === '5') mkdirSync(target, { recursive: true, mode: 0o700 });
    else if (type === '0') {
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      writeFileSync(target, tar.subarray(at, at + size), { mode: 0o600 });
    }
    at += Math.ceil(size / 512) * 512;
  }
  return true;
}

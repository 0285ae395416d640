import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { installedPgliteVersion, plantSeed, SEED_INFO } from '../../src/db/pglite-seed.ts';

describe('the embedded database seed (src/db/pglite-seed/)', () => {
  it('was made by the installed PGlite (after an upgrade: node scripts/pglite-seed.ts)', () => {
    const info = JSON.parse(readFileSync(SEED_INFO, 'utf8')) as { pgliteVersion: string };
    expect(info.pgliteVersion, 'regenerate with `node scripts/pglite-seed.ts`').toBe(
      installedPgliteVersion(),
    );
  });

  it('becomes a working data directory that keeps its data across restarts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'postkit-seed-'));
    try {
      const first = await openDatabase({ dataDir });
      // Planted, not initdb'd: the seed's files are there, and the migrations ran on top.
      expect(existsSync(join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
      await first.db.execute('create table seed_probe (n int)');
      await first.db.execute('insert into seed_probe values (42)');
      await first.close();
      const second = await openDatabase({ dataDir });
      const rows = await second.db.execute('select n from seed_probe');
      expect((rows as unknown as { rows: { n: number }[] }).rows).toEqual([{ n: 42 }]);
      const accounts = await second.db.execute('select count(*)::int as n from accounts');
      expect((accounts as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses an archive entry that would land outside the data directory', () => {
    const header = Buffer.alloc(512);
    header.write('../escaped', 0);
    header.write('00000000001\0', 124);
    header.write('0', 156);
    const tar = Buffer.concat([header, Buffer.from('x'.padEnd(512, '\0')), Buffer.alloc(1024)]);
    const dir = mkdtempSync(join(tmpdir(), 'postkit-seed-'));
    try {
      expect(() => plantSeed(join(dir, 'data'), gzipSync(tar))).toThrow(/outside the data directory/);
      expect(existsSync(join(dir, 'escaped'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

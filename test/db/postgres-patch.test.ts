import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * patches/postgres+3.4.9.patch (docs/operations.md): postgres.js 3.4.9 throws an uncatchable
 * TypeError when a transaction's connection dies mid-write; the patch fails the pending queries
 * instead. It reaches into the driver's own source, so an upgrade of postgres.js must meet this
 * test: the version the patch was written for, and the guard present in the file Node loads.
 */
const driverDir = join(import.meta.dirname, '..', '..', 'node_modules', 'postgres');

describe('the postgres.js patch', () => {
  it('is for the installed version', () => {
    const { version } = JSON.parse(readFileSync(join(driverDir, 'package.json'), 'utf8'));
    expect(
      version,
      'postgres.js changed: check whether the upstream fix landed, then drop or redo the patch',
    ).toBe('3.4.9');
  });

  it('is applied to every build of the driver (ESM, CommonJS, Cloudflare)', () => {
    const builds = ['src/connection.js', 'cjs/src/connection.js', 'cf/src/connection.js'].map((f) =>
      join(driverDir, f),
    );
    for (const file of builds) {
      const source = readFileSync(file, 'utf8');
      expect(source, file).toContain('Closed while a write was buffered');
      expect(source, file).toContain("error(Errors.connection('CONNECTION_CLOSED', options))");
    }
  });
});

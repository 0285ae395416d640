import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One claim site: every sweep claims its rows through the jobs kit (src/jobs/claim-batch.ts),
 * so each gets the kit's lease and batching. A second `FOR UPDATE SKIP LOCKED` (the series sweep
 * had one) is a claim that misses them.
 */
const root = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Drizzle's `.for('update', { skipLocked: true })` or SKIP LOCKED in raw SQL; comments aside. */
const SKIP_LOCKED = /skipLocked\s*:|\bskip\s+locked\b/i;
const isComment = (line: string) => /^\s*(\/\/|\/?\*)/.test(line);

function sites(text: string): number[] {
  return text.split('\n').flatMap((line, i) => (!isComment(line) && SKIP_LOCKED.test(line) ? [i + 1] : []));
}

describe('claims', () => {
  it('src/ takes FOR UPDATE SKIP LOCKED in exactly one place, the jobs kit', () => {
    const found = sourceFiles(join(root, 'src')).flatMap((path) =>
      sites(readFileSync(path, 'utf8')).map((line) => `${relative(root, path)}:${line}`),
    );
    expect(found.map((site) => site.replace(/:\d+$/, ''))).toEqual(['src/jobs/claim-batch.ts']);
  });

  it('the pattern finds both spellings and passes over comments', () => {
    expect(sites(".for('update', { skipLocked: true })")).toEqual([1]);
    expect(sites('sql`select id from posts for update skip locked`')).toEqual([1]);
    expect(sites(' * taken with FOR UPDATE SKIP LOCKED in one transaction')).toEqual([]);
    expect(sites('// SKIP LOCKED lets workers pass each other')).toEqual([]);
  });
});

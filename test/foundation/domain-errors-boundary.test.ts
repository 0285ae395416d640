import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The domain speaks its own errors (src/domain/errors.ts); only the transports (src/http/,
 * src/mcp/) turn them into statuses. This keeps HTTP errors from creeping back into services.
 */
const root = join(import.meta.dirname, '..', '..');
const srcDir = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const outsideTransports = sourceFiles(srcDir)
  .map((path) => relative(root, path).replaceAll('\\', '/'))
  .filter((path) => !path.startsWith('src/http/') && !path.startsWith('src/mcp/'));

/** `from '../http/errors.ts'`, `import('../../http/error-handler.ts')` and the like. */
const HTTP_ERROR_IMPORT = /(?:from\s+|import\s*\(\s*)['"][^'"]*\/http\/(?:errors|error-handler)(?:\.ts)?['"]/;

describe('domain errors boundary', () => {
  it('scans a real tree', () => {
    expect(outsideTransports.length).toBeGreaterThan(50);
    expect(outsideTransports).toContain('src/domain/errors.ts');
  });

  it('no file outside src/http and src/mcp imports the HTTP errors or names AppError', () => {
    const offenders = outsideTransports.filter((path) => {
      const text = readFileSync(join(root, path), 'utf8');
      return HTTP_ERROR_IMPORT.test(text) || /\bAppError\b/.test(text);
    });
    expect(offenders).toEqual([]);
  });

  it('no error class in src/features or src/domain carries a status of its own (OAuthError did)', () => {
    const withStatus = outsideTransports
      .filter((path) => path.startsWith('src/features/') || path.startsWith('src/domain/'))
      .flatMap((path) =>
        [...readFileSync(join(root, path), 'utf8').matchAll(/class (\w+) extends Error \{([\s\S]*?)\n\}/g)]
          .filter((m) => /\bstatus\b/.test(m[2]!))
          .map((m) => `${path}: ${m[1]}`),
      );
    expect(withStatus).toEqual([]);
  });

  it('the pattern catches the imports it is meant to catch', () => {
    expect(HTTP_ERROR_IMPORT.test("import { AppError } from '../../http/errors.ts';")).toBe(true);
    expect(HTTP_ERROR_IMPORT.test("import { x } from '../http/error-handler.ts';")).toBe(true);
    expect(HTTP_ERROR_IMPORT.test("import { Invalid } from '../../domain/errors.ts';")).toBe(false);
  });
});

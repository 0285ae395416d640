import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The product's source root, which the import-graph tests read. */
export const SRC = resolve(import.meta.dirname, '../../src');

/** Every .ts file under `dir`, recursively. */
export function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * Absolute paths of the relative specifiers of `import ... from`, `export ... from` and
 * `import('...')`, type-only ones included: a type is a dependency to a reader too.
 */
export function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.map((s) => resolve(dirname(file), s));
}

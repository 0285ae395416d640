import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No import circle anywhere in src/, counting type-only imports and re-exports too: a circle
 * is a boundary nobody can explain, even when type stripping erases it at run time.
 */
const SRC = resolve(import.meta.dirname, '../../src');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** Relative specifiers of `import ... from`, `export ... from` and `import('...')`. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.map((s) => resolve(dirname(file), s));
}

/** Every elementary circle found by a depth-first walk, each as a list of src-relative paths. */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('import graph', () => {
  it('finds a circle when there is one (the check itself can fail)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
    expect(
      findCycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('has no circles in src/', () => {
    const files = tsFiles(SRC);
    expect(files.length).toBeGreaterThan(50);
    const graph = new Map(files.map((f) => [f, relativeImports(f)]));
    const cycles = findCycles(graph).map((c) => c.map((f) => relative(SRC, f)).join(' -> '));
    expect(cycles).toEqual([]);
  });
});

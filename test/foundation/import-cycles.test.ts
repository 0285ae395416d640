import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { relativeImports, SRC, tsFiles } from '../helpers/import-graph.ts';

/**
 * No import circle anywhere in src/, counting type-only imports and re-exports too: a circle
 * is a boundary nobody can explain, even when type stripping erases it at run time. The
 * folders' order is checked beside this, in folder-layers.test.ts.
 */

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

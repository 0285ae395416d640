import { relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { relativeImports, SRC, tsFiles } from '../helpers/import-graph.ts';

/**
 * `scoring/` has one front door (issue 23 item 4): the rest of the service imports
 * `scoring/index.ts` and nothing else of it, so its inside (rules, judge, learned, personal,
 * writers, text, model) can be regrouped without touching a feature. Tests and scripts may
 * reach inside to measure a part.
 */
const SCORING = `${SRC}${sep}scoring${sep}`;
const FRONT_DOOR = `${SCORING}index.ts`;

/** Imports of scoring internals from outside scoring, as `from -> to`. */
function aroundTheFrontDoor(imports: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of imports) {
    if (from.startsWith(SCORING)) continue;
    for (const to of targets) {
      if (to.startsWith(SCORING) && to !== FRONT_DOOR)
        found.push(`${relative(SRC, from)} -> ${relative(SRC, to)}`);
    }
  }
  return found.sort();
}

describe('the scoring front door', () => {
  it('nothing outside scoring/ imports a scoring module other than scoring/index.ts', () => {
    const imports = new Map(tsFiles(SRC).map((f) => [f, relativeImports(f)]));
    expect(aroundTheFrontDoor(imports)).toEqual([]);
  });

  it('would report a feature that reaches inside', () => {
    const feature = `${SRC}${sep}features${sep}x${sep}x.service.ts`;
    const imports = new Map([[feature, [`${SCORING}rules${sep}rubrics.ts`, FRONT_DOOR]]]);
    expect(aroundTheFrontDoor(imports)).toEqual([
      `features${sep}x${sep}x.service.ts -> scoring${sep}rules${sep}rubrics.ts`,
    ]);
  });

  it('groups the inside by job: no module sits at the top but the front door, the engine and the scorer', () => {
    const top = tsFiles(SCORING)
      .map((f) => relative(SCORING, f))
      .filter((f) => !f.includes(sep))
      .sort();
    expect(top).toEqual([
      // The writer-facing concepts every rule and feature belongs to.
      'concepts.ts',
      'engine-interface.ts',
      'engine-notice.ts',
      'engine.ts',
      'index.ts',
      'scorer.ts',
      'types.ts',
    ]);
  });
});

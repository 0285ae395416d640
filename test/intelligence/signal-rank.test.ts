import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rank } from '../../src/scoring/scorer.ts';
import type { Signal } from '../../src/scoring/types.ts';

/** The ranking as it was written before: each signal carried its index as the last tiebreak. */
function rankBefore(fired: Signal[], others: Signal[], max: number): Signal[] {
  const order = (list: Signal[]) =>
    list
      .map((s, i) => ({ s, i }))
      .sort(
        (a, b) =>
          b.s.weight - a.s.weight ||
          (a.s.impact === b.s.impact ? 0 : a.s.impact === 'negative' ? -1 : 1) ||
          (a.s.rule ? 0 : 1) - (b.s.rule ? 0 : 1) ||
          a.i - b.i,
      )
      .map(({ s }) => s);
  return order([...fired, ...order(others).slice(0, Math.max(0, max - fired.length))]);
}

/** scorer.ts's MAX_SIGNALS. */
const MAX_SIGNALS = 12;

const signal = fc.record({
  dimension: fc.constant('voice' as const),
  concept: fc.constant('voice' as const),
  impact: fc.constantFrom('positive' as const, 'negative' as const),
  weight: fc.integer({ min: 1, max: 5 }),
  label: fc.string({ maxLength: 3 }),
  detail: fc.string({ maxLength: 3 }),
  rule: fc.option(fc.constantFrom('a', 'b'), { nil: undefined }),
  spans: fc.constant<{ start: number; end: number }[]>([]),
});

describe('ranking signals', () => {
  it('orders as the index-carrying sort did, and leaves the lists it was given alone', () => {
    fc.assert(
      fc.property(
        fc.array(signal, { maxLength: 12 }),
        fc.array(signal, { maxLength: 20 }),
        (fired, others) => {
          const othersCopy = [...others];
          const now = rank(fired, others);
          expect(others).toEqual(othersCopy);
          const before = rankBefore(fired, others, MAX_SIGNALS);
          // The same objects in the same places, not only equal ones.
          expect(now.length).toBe(before.length);
          for (let i = 0; i < now.length; i++) expect(now[i]).toBe(before[i]);
        },
      ),
      { numRuns: 3_000 },
    );
  });
});

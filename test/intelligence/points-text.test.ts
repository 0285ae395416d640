import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signed, tenths } from '../../src/scoring/learned/points-text.ts';

describe('points as signals state them', () => {
  it('states tenths exactly as toFixed(1) does', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ min: 0, max: 100, noNaN: true }),
          fc.double({ min: 0, max: 2e7, noNaN: true }),
          // Ties and the numbers next to them, where rounding a * 10 could cross the half.
          fc.integer({ min: 0, max: 2_000_000 }).map((k) => k / 20),
          fc.tuple(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: -3, max: 3 })).map(([k, ulps]) => {
            let a = k / 20 + 0.05;
            for (let i = 0; i < Math.abs(ulps); i++) a = ulps > 0 ? nextUp(a) : nextDown(a);
            return a;
          }),
        ),
        (a) => {
          expect(tenths(a)).toBe(a.toFixed(1));
          expect(signed(a)).toBe(`+${a.toFixed(1)}`);
          if (a > 0) expect(signed(-a)).toBe(`-${a.toFixed(1)}`);
        },
      ),
      { numRuns: 20_000 },
    );
    for (const a of [
      0,
      -0,
      0.05,
      0.15,
      0.25,
      0.35,
      1.05,
      2.675,
      9.95,
      99.95,
      1e7,
      1e21,
      Number.NaN,
      Infinity,
    ])
      expect(tenths(Math.abs(a))).toBe(Math.abs(a).toFixed(1));
    expect(signed(-0)).toBe('+0.0');
  });
});

const view = new DataView(new ArrayBuffer(8));
function nextUp(a: number): number {
  view.setFloat64(0, a);
  view.setBigUint64(0, view.getBigUint64(0) + 1n);
  return view.getFloat64(0);
}
function nextDown(a: number): number {
  if (a === 0) return 0;
  view.setFloat64(0, a);
  view.setBigUint64(0, view.getBigUint64(0) - 1n);
  return view.getFloat64(0);
}

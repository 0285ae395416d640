import { describe, expect, it } from 'vitest';
import { mannWhitney, median, pairwiseAccuracy, ranks, spearman } from '../../src/lib/rank-stats.ts';

describe('rank statistics', () => {
  it('ranks with ties sharing the average rank', () => {
    expect(ranks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
  });

  it('spearman: monotone is 1, reversed is -1, constant or tiny is null', () => {
    expect(spearman([1, 2, 3, 4], [10, 100, 1000, 10_000])).toBeCloseTo(1);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1);
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(spearman([1, 2], [1, 2])).toBeNull();
    // Known value: x = 1..5, y = 2,1,4,3,5 -> 1 - 6*4/(5*24) = 0.8
    expect(spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])).toBeCloseTo(0.8);
  });

  it('pairwise accuracy counts only pairs 2x apart, and a predictor tie as half', () => {
    // outcomes 0, 1, 10: pairs (0,10) and (1,10) qualify; (0,1) is 1 vs 2 on 1+x, exactly 2x: qualifies too.
    expect(pairwiseAccuracy([1, 2, 3], [0, 1, 10])).toEqual({ accuracy: 1, pairs: 3 });
    expect(pairwiseAccuracy([3, 2, 1], [0, 1, 10])).toEqual({ accuracy: 0, pairs: 3 });
    expect(pairwiseAccuracy([1, 1], [0, 10])).toEqual({ accuracy: 0.5, pairs: 1 });
    expect(pairwiseAccuracy([1, 2], [10, 11])).toEqual({ accuracy: null, pairs: 0 });
  });

  it('mann-whitney matches the textbook normal approximation', () => {
    const a = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const b = [11, 12, 13, 14, 15, 16, 17, 18, 19, 20];
    // U = 0, mean 50, sd sqrt(10*10*21/12) = 13.229; z = 49.5 / 13.229 = 3.742 -> p = 0.000183
    const r = mannWhitney(a, b);
    expect(r.p).toBeCloseTo(0.000183, 5);
    expect(r.effect).toBe(0);
    expect(mannWhitney(a, a).p).toBeCloseTo(1, 6);
    expect(mannWhitney([], a).p).toBe(1);
  });

  it('median', () => {
    expect(median([])).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

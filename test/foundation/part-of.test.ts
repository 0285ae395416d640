import { describe, expect, it } from 'vitest';
import { partOf } from '../../src/lib/part-of.ts';

describe('partOf: a part of a whole as a sentence subject', () => {
  it.each([
    [1, 1, 'The row is'],
    [1, 3, '1 of 3 rows is'],
    [2, 3, '2 of 3 rows are'],
    [3, 3, 'All 3 rows are'],
    [1, 1000, '1 of 1000 rows is'],
  ])('%i of %i: "%s"', (part, whole, said) => {
    const p = partOf(part, whole, 'row');
    expect(`${p.subject} ${p.is}`).toBe(said);
  });
});

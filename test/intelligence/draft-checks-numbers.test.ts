import { describe, expect, it } from 'vitest';
import { numbersMissing, specificsKept } from '../../src/scoring/writers/draft-checks.ts';

/** Issue 34: a draft keeps the brief's figures however their thousands are written. */
describe('the draft checks read a number whole', () => {
  const brief = 'We served 12,000 patients at Mercy General in 2025.';

  it('"12,000" and "12000" are one number, both ways', () => {
    expect(specificsKept(brief, 'Mercy General served 12000 patients in 2025.')).toBe(1);
    expect(
      specificsKept(
        'We served 12000 patients at Mercy General in 2025.',
        'Mercy General: 12,000 patients in 2025.',
      ),
    ).toBe(1);
    expect(specificsKept(brief, 'Mercy General served 12 000 patients in 2025.')).toBeLessThan(1);
    expect(numbersMissing(brief, 'Mercy General served 12000 patients in 2025.')).toEqual([]);
  });

  it('a different number is still missing', () => {
    expect(specificsKept(brief, 'Mercy General served 120 patients in 2025.')).toBeLessThan(1);
  });
});

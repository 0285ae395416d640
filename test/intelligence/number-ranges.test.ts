import fc from 'fast-check';
import { expect, it } from 'vitest';
import { countNumbers, NUMBER, numberRanges, withoutNames } from '../../src/scoring/text/numbers.ts';
import { extractFeatures } from '../../src/scoring/text/text-features.ts';

/**
 * numberRanges tries NUMBER only where a match can start (a digit or $ € £); the global search
 * it replaced tried every position. Both must find the same numbers, and extractFeatures keeps
 * them for the count and the signal's spans.
 */
const byGlobalSearch = (text: string): [number, number][] =>
  [...withoutNames(text).matchAll(NUMBER)].map((m) => [m.index, m.index + m[0].length]);

const text = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        ' ',
        '1',
        '23',
        '3.5',
        '10,000',
        '.',
        ',',
        '%',
        '$',
        '€',
        '£',
        'k',
        'M',
        'x',
        'th',
        'ſ',
        '\u212a',
        'B2B',
        '#tag1',
        '@bob2',
        'https://a.b/3',
        'www.x.com/4',
        '-',
        '’',
        'é',
        '\n',
      ),
      fc.string({ maxLength: 3 }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

it('finds the numbers the global search finds', () => {
  fc.assert(
    fc.property(text, (t) => {
      const expected = byGlobalSearch(t);
      expect(numberRanges(t)).toEqual(expected);
      expect(countNumbers(t)).toBe(expected.length);
      const f = extractFeatures(t);
      expect(f.numbers).toBe(f.numberRanges === undefined ? 0 : f.numberRanges.length);
      if (f.numberRanges !== undefined) expect(f.numberRanges).toEqual(byGlobalSearch(f.text));
    }),
    { numRuns: 5_000 },
  );
  expect(numberRanges('We grew 40% to $3M in 2024, see #2024 and B2B.')).toEqual([
    [8, 11],
    [15, 18],
    [22, 26],
  ]);
});

import fc from 'fast-check';
import { expect, it } from 'vitest';
import {
  countNumbers,
  isListMarker,
  NUMBER,
  numberRanges,
  withoutNames,
} from '../../src/scoring/text/numbers.ts';
import { extractFeatures } from '../../src/scoring/text/text-features.ts';

/**
 * numberRanges tries NUMBER only where a match can start (a digit or $ € £); the global search
 * it replaced tried every position. Both must find the same numbers, and extractFeatures keeps
 * them for the count and the signal's spans.
 */
const byGlobalSearch = (text: string): [number, number][] => {
  const t = withoutNames(text);
  return [...t.matchAll(NUMBER)]
    .map((m): [number, number] => [m.index, m.index + m[0].length])
    .filter(([start, end]) => !isListMarker(t, start, end));
};

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
        '(',
        ')',
        '1)',
        '2. ',
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

it("leaves out a list's item numbers, which order points and count nothing", () => {
  const found = (t: string) => numberRanges(t).map(([a, b]) => t.slice(a, b));
  // A real post (linkedin-creator-posts.csv): "using 1) AI, and 2) a digital health app".
  expect(found('freed from using 1) AI, and 2) a digital health app')).toEqual([]);
  expect(found('1. Ship it on 3 May\n2) Test it\n(3) Tell 40 people')).toEqual(['3', '40']);
  expect(found('Founded (in 2021) with 12 people, rated 3.5, version 2.')).toEqual([
    '2021',
    '12',
    '3.5',
    '2',
  ]);
  expect(found('100) is no list marker')).toEqual(['100']);
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsSpace, sentenceStats } from '../../src/scoring/text/text-scan.ts';

/** The sentence measure as it was written with regexes: the hand scan must agree with it. */
function byRegex(text: string): { sentences: number; repeated: number } {
  let n = 0;
  let total = 0;
  let repeated = 0;
  const seen = new Set<string>();
  for (const piece of text.split(/[.!?…]+(?=\s|$)|\n/u)) {
    if (!/[\p{L}\p{N}]/u.test(piece)) continue;
    n++;
    const key = piece.trim().toLowerCase();
    total += key.length;
    if (seen.has(key)) repeated += key.length;
    else seen.add(key);
  }
  return { sentences: n, repeated: total === 0 ? 0 : repeated / total };
}

const text = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '.',
        '!',
        '?',
        '…',
        '...',
        '\n',
        ' ',
        '\u00a0',
        '\u2028',
        '\t',
        'Same line',
        'same LINE',
        'İ',
        'Σ',
        'ΟΔΟΣ',
        '𝐁𝐨𝐥𝐝',
        '🚀',
        'é',
      ),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('hand scans of the text', () => {
  it('treats as white space exactly what \\s matches', () => {
    for (let c = 0; c < 0x10000; c++)
      expect(isJsSpace(c), `U+${c.toString(16)}`).toBe(/\s/.test(String.fromCharCode(c)));
  });

  it('cuts and counts sentences as the regex split did', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(sentenceStats(t, t.toLowerCase())).toEqual(byRegex(t));
      }),
      { numRuns: 3_000 },
    );
  });
});

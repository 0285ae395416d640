import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paragraphStats } from '../../src/scoring/text/paragraph-stats.ts';

/** The measure as it was written: split at line breaks, a line blank when it trims to nothing. */
function bySplit(text: string): { paragraphs: number; longest: number; lines: number } {
  let paragraphs = 0;
  let longest = 0;
  let lines = 0;
  let inParagraph = false;
  for (const line of text.split('\n')) {
    if (line.trim().length === 0) {
      inParagraph = false;
      continue;
    }
    if (!inParagraph) paragraphs++;
    inParagraph = true;
    lines++;
    if (line.length > longest) longest = line.length;
  }
  return { paragraphs, longest, lines };
}

const text = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '\n',
        '\n\n',
        ' ',
        '\t',
        '\u00a0',
        '\u2028',
        '\ufeff',
        '\u3000',
        'word',
        'A long line.',
      ),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

describe('paragraph measures', () => {
  it('count paragraphs, lines and the longest line as splitting and trimming the lines did', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(paragraphStats(t)).toEqual(bySplit(t));
      }),
      { numRuns: 5_000 },
    );
    expect(paragraphStats('a\n \nbb\ncc\n')).toEqual({ paragraphs: 2, longest: 2, lines: 3 });
  });
});

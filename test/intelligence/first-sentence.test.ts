import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstSentence } from '../../src/scoring/text/first-sentence.ts';

/** The pattern the hand scan replaced. */
function byRegex(line: string): string {
  const m = /^.*?[.!?…]+(?=\s|$)/u.exec(line);
  return (m ? m[0] : line).trim();
}

const line = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '.',
        '!',
        '?',
        '…',
        '...',
        '?!',
        ' ',
        '\t',
        '\u00a0',
        '\n',
        '\r',
        '\u2028',
        '\u2029',
        'Word',
        'a',
      ),
      fc.string({ maxLength: 3 }),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('first sentence', () => {
  it('is what the lazy pattern matched, trimmed', () => {
    fc.assert(
      fc.property(line, (l) => {
        expect(firstSentence(l)).toBe(byRegex(l));
      }),
      { numRuns: 10_000 },
    );
    expect(firstSentence('  Hi there... and more. Rest')).toBe('Hi there...');
    expect(firstSentence('v1.2 is out!')).toBe('v1.2 is out!');
  });
});

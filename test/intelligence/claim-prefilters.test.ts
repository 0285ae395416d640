import fc from 'fast-check';
import { expect, it } from 'vitest';
import { endsAsStatement } from '../../src/scoring/rules/hook.ts';
import { withoutNames } from '../../src/scoring/text/numbers.ts';

/**
 * Patterns the scorer no longer runs over a whole opening or post where they cannot match: the
 * statement ending tried only at the last code point, and links, tags and handles blanked by
 * their pattern tried only at a "#", "@", "www." or 4-5 characters before a "://". Each must
 * answer as the pattern run everywhere.
 */
const IN_NAME = /\bhttps?:\/\/\S+|\bwww\.\S+|[#@][\p{L}\p{N}_]+/giu;
const blankedBefore = (text: string) =>
  /[#@/]|www\./i.test(text) ? text.replace(IN_NAME, (m) => ' '.repeat(m.length)) : text;

const text = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        ' ',
        '.',
        '!',
        '…',
        ':',
        '?',
        'a',
        'É',
        '7',
        '𝐁',
        '🚀',
        '\ud835',
        '\udc01',
        '/',
        '://',
        'HTTPS://x.io',
        'http:/a',
        'WWW.a',
        'ww.',
        '#',
        '#ai',
        '@bo',
        '24/7',
      ),
      fc.string({ maxLength: 3 }),
    ),
    { minLength: 1, maxLength: 20 },
  )
  .map((parts) => parts.join(''));

it('ends as a statement where the unanchored pattern says so, and blanks the same names', () => {
  fc.assert(
    fc.property(text, (t) => {
      if (t.length > 0) expect(endsAsStatement(t)).toBe(/[.!…:]$|\p{L}$/u.test(t));
      expect(withoutNames(t)).toBe(blankedBefore(t));
    }),
    { numRuns: 10_000 },
  );
});

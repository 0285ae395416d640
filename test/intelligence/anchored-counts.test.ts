import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countAround,
  countAtLineStarts,
  countAtStarts,
  countFrom,
  countFromSplit,
  linkStarts,
  sticky,
} from '../../src/scoring/text/anchored-counts.ts';
import { countMatches, NOT_X_BUT_Y } from '../../src/scoring/text/lexicon.ts';
import { extractFeatures, HASHTAG, LINK, LIST_LINE, MENTION } from '../../src/scoring/text/text-features.ts';
import { withoutTrailingHashtags } from '../../src/scoring/text/text-scan.ts';

/** Text made of the pieces the patterns decide on, and any characters. */
const text = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '#',
        '#tag',
        '##x',
        '&#x',
        '/#x',
        '@',
        '@ana',
        'a@b.c',
        '.@x',
        'not ',
        'NOT ',
        'Not just ',
        "it's not ",
        'it’s not ',
        'It is not ',
        'this is not ',
        "that's not ",
        ', but ',
        'a test. It is ',
        '; it is ',
        ' — it’s ',
        '. ',
        '! ',
        '\n',
        '\n- ',
        '\n  • ',
        '\n12. ',
        '\n123) ',
        '\n🚀\uFE0F ',
        '\n\t* ',
        '\u2028- ',
        '\r',
        'İ',
        ' ',
        '\t',
        'word',
      ),
      fc.string({ maxLength: 3 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

/** Text made of link pieces, in any case, and any characters. */
const linkText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'http://',
        'HTTPS://',
        'https:/',
        'hTtp',
        '://',
        'www.',
        'WwW.',
        'ww',
        'lnkd.in/',
        'Bit.ly/',
        'T.CO/',
        'buff.ly/',
        'xbit.ly/',
        '/',
        '//',
        ':',
        '.',
        ' ',
        '\n',
        ')',
        '"',
        'İ',
        'K',
        'a',
        '_',
        'é',
      ),
      fc.string({ maxLength: 3 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

const HASHTAG_AT = sticky(HASHTAG);
const LINK_AT = sticky(LINK);
const MENTION_AT = sticky(MENTION);
const LIST_LINE_AT = sticky(LIST_LINE);
const NOT_AT = sticky(NOT_X_BUT_Y);

describe('counts tried only where a match can start', () => {
  it('equal the global patterns', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(countFrom(HASHTAG_AT, t, '#')).toBe(countMatches(HASHTAG, t));
        const inline = withoutTrailingHashtags(t).trimEnd();
        expect(countFromSplit(HASHTAG_AT, t, '#', inline.length)).toEqual({
          all: countMatches(HASHTAG, t),
          before: countMatches(HASHTAG, inline),
        });
        expect(countFrom(MENTION_AT, t, '@')).toBe(countMatches(MENTION, t));
        expect(countAtLineStarts(LIST_LINE_AT, t, LIST_LINE)).toBe(countMatches(LIST_LINE, t));
        const lower = t.toLowerCase();
        if (lower.length === t.length)
          expect(countAround(NOT_AT, t, lower, 'not ', [0, 5, 6, 7, 8], 'nit')).toBe(
            countMatches(NOT_X_BUT_Y, t),
          );
      }),
      { numRuns: 5_000 },
    );
  });

  it('count the links the global pattern finds', () => {
    fc.assert(
      fc.property(fc.oneof(linkText, text), (t) => {
        const starts = linkStarts(t, t.toLowerCase());
        if (t.toLowerCase().length !== t.length) expect(starts).toBeUndefined();
        else expect(countAtStarts(LINK_AT, t, starts!)).toBe(countMatches(LINK, t));
      }),
      { numRuns: 5_000 },
    );
    const t = 'See https://a.b/c?d=(e) and WWW.x.io, bit.ly/z; lnkd.in/q buff.ly/r t.co/s';
    expect(countAtStarts(LINK_AT, t, linkStarts(t, t.toLowerCase())!)).toBe(6);
  });

  it('finds the matches a start of another occurrence comes before', () => {
    // The second "not " has a start ("it is not ") before the first one's.
    const t = "it is not a, but it's fine. It is not this, it is that. not x, but y";
    expect(countAround(NOT_AT, t, t.toLowerCase(), 'not ', [0, 5, 6, 7, 8], 'nit')).toBe(
      countMatches(NOT_X_BUT_Y, t),
    );
    // Each opening of the second form, whose "not " is not where the first form starts.
    for (const opening of ["It's", 'It’s', 'It is', 'This is', "That's", 'That’s']) {
      const t2 = `Well. ${opening} not a test. It is real.`;
      expect(countAround(NOT_AT, t2, t2.toLowerCase(), 'not ', [0, 5, 6, 7, 8], 'nit')).toBe(1);
      expect(countMatches(NOT_X_BUT_Y, t2)).toBe(1);
    }
    expect(extractFeatures('It is not a, but b. This is not c. It is d.\nWWW.example.com').links).toBe(1);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanNonAscii } from '../../src/scoring/text/emoji.ts';
import { countProperNouns, isJsSpace, sentenceStats, splitPieces } from '../../src/scoring/text/text-scan.ts';
import { personLengthByRegex } from '../helpers/person-length-by-regex.ts';

/** Capitalised words mid-sentence, as a regex says it (countProperNouns reads code units). */
const properNounsByRegex = (t: string) =>
  (t.match(/(?<=[\p{Ll}\p{N},;:)]) \p{Lu}[\p{L}\p{N}]/gu) ?? []).length;

/**
 * The sentence measure as it was written with regexes, and the capitalised words counted in
 * the same scan (properNounsByRegex): the hand scan must agree with it.
 */
function byRegex(text: string) {
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
  return {
    sentences: n,
    repeated: total === 0 ? 0 : repeated / total,
    properNouns: properNounsByRegex(text),
    ...scanNonAscii(text),
    emDashes: text.split('—').length - 1,
    chars: personLengthByRegex(text),
  };
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
        '—',
        '\ud83d—',
      ),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

/**
 * Sentences that repeat, in other cases or spacing, or that differ only in the middle (the
 * repeat table keys a sentence by its length and its first and last 8 characters), and
 * enough distinct ones that the table grows.
 */
const repeats = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'The same long sentence here',
        'The same long sentance here',
        'THE SAME LONG SENTENCE HERE',
        '  the same long sentence here ',
        'Temperature in \u212a',
        'temperature in k',
        'Short',
        'short',
        'ΟΔΟΣ',
        'İstanbul',
      ),
      fc.nat({ max: 60 }).map((k) => `Sentence number ${k} of many`),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 80 },
  )
  .chain((sentences) =>
    fc
      .array(fc.constantFrom('. ', '! ', '?\n', '\n', '… ', '.'), {
        minLength: sentences.length,
        maxLength: sentences.length,
      })
      .map((ends) => sentences.map((t, i) => t + ends[i]).join('')),
  );

/** Emoji and styled letters, code point by code point. */
function nonAsciiByCodePoint(t: string): { emoji: number; styled: number } {
  let emoji = 0;
  let styled = 0;
  for (const ch of t) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x1d400 && cp <= 0x1d7ff) styled++;
    else if (cp >= 0xa9 && /^\p{Extended_Pictographic}$/u.test(ch)) emoji++;
  }
  return { emoji, styled };
}

/** Well-formed text with the characters the scans decide on, and any code point. */
const wellFormed = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        ' ',
        ', ',
        ') ',
        ' A',
        ' É',
        ' 𝐁',
        'a',
        '7',
        'Name',
        ' X1',
        '🚀',
        '©',
        '𝐁𝐨𝐥𝐝',
        'Ω',
        'ß',
        '\n',
      ),
      fc.string({ unit: 'binary', maxLength: 4 }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('hand scans of the text', () => {
  it('counts capitalised words mid-sentence, emoji and styled letters as the Unicode classes say', () => {
    fc.assert(
      fc.property(wellFormed, (t) => {
        expect(countProperNouns(t)).toBe(properNounsByRegex(t));
        const stats = sentenceStats(t, t.toLowerCase());
        expect(stats.properNouns).toBe(properNounsByRegex(t));
        expect({ emoji: stats.emoji, styled: stats.styled }).toEqual(nonAsciiByCodePoint(t));
        expect(scanNonAscii(t)).toEqual(nonAsciiByCodePoint(t));
      }),
      { numRuns: 3_000 },
    );
    // Long enough for the scans to grow their code-unit buffers, then short again.
    const long = 'I met Ana in Oslo, then 🚀 𝐁𝐨𝐥𝐝 Bob. '.repeat(600);
    expect(countProperNouns(long)).toBe(properNounsByRegex(long));
    expect(scanNonAscii(long)).toEqual(nonAsciiByCodePoint(long));
    expect(countProperNouns('x, Yz')).toBe(1);
    expect(sentenceStats(long, long.toLowerCase()).properNouns).toBe(properNounsByRegex(long));
  });

  it('counts emoji and styled letters in the sentence scan as scanNonAscii does, lone surrogates too', () => {
    const units = fc
      .array(
        fc.constantFrom(
          '\ud83d',
          '\ude80',
          '\ud835',
          '\udc01',
          '🚀',
          '𝐁',
          '☀',
          '©',
          '…',
          '.',
          '!',
          '\n',
          ' ',
          'a',
        ),
        { maxLength: 30 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(units, (t) => {
        const { emoji, styled } = sentenceStats(t, t.toLowerCase());
        expect({ emoji, styled }).toEqual(scanNonAscii(t));
      }),
      { numRuns: 3_000 },
    );
  });

  it('counts the pieces a split at white space makes', () => {
    fc.assert(
      fc.property(fc.oneof(text, wellFormed), (t) => {
        expect(splitPieces(t)).toBe(t.split(/\s+/).length);
        expect(splitPieces(t.trim())).toBe(t.trim().split(/\s+/).length);
      }),
      { numRuns: 3_000 },
    );
  });

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
    fc.assert(
      fc.property(repeats, (t) => {
        expect(sentenceStats(t, t.toLowerCase())).toEqual(byRegex(t));
      }),
      { numRuns: 2_000 },
    );
    const many = Array.from({ length: 500 }, (_, k) => `Line ${k % 300} says the same thing.`).join(' ');
    expect(sentenceStats(many, many.toLowerCase())).toEqual(byRegex(many));
    expect(byRegex(many).repeated).toBeGreaterThan(0.3);
  });
});

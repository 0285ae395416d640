import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoteAsWritten } from '../../src/scoring/learned/quote-words.ts';

/**
 * How the word-choice signal quoted a word before it searched the post without straightening
 * its apostrophes for words that hold none: the whole post lower-cased and straightened, then
 * the first spelling at a word boundary (or the word when the post writes it in lower case).
 */
function quoteBefore(word: string, text: string): string {
  const lower = text.toLowerCase().replaceAll('’', "'");
  if (lower.length !== text.length) return word;
  const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
  let first: string | undefined;
  for (let at = lower.indexOf(word); at !== -1; at = lower.indexOf(word, at + 1)) {
    if (isWordChar(lower[at - 1]) || isWordChar(lower[at + word.length])) continue;
    const spelt = text.slice(at, at + word.length).replaceAll('’', "'");
    if (spelt === word) return word;
    first ??= spelt;
  }
  return first ?? word;
}

const pieces = [
  'don’t',
  "don't",
  'DON’T',
  'Dont',
  'won',
  't',
  'OpenAI',
  'openai',
  ' ',
  '’',
  "'",
  'İ',
  '.',
  'x',
];
const text = fc
  .array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 3 })), { maxLength: 25 })
  .map((p) => p.join(''));
const word = fc.constantFrom("don't", 'dont', 'openai', 't', 'won', "'t", 'x');

describe('quoting a word as the post writes it', () => {
  it('finds the spelling the whole straightened post gave, with or without the lower-cased post', () => {
    fc.assert(
      fc.property(word, text, (w, t) => {
        const before = quoteBefore(w, t);
        expect(quoteAsWritten(w, t)).toBe(before);
        expect(quoteAsWritten(w, t, t.toLowerCase())).toBe(before);
      }),
      { numRuns: 3_000 },
    );
  });
});

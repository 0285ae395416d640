/**
 * Names: people, products, places, written with a capital inside a sentence ("with Stripe",
 * "Priya and I"). A capital that only starts a title-case headline ("How To Build A Team"), or
 * a common word capitalised for emphasis or a heading ("The", "Team" when the post also writes
 * "team"), names nothing.
 */

import { WORD_CHAR } from './spans.ts';

const CANDIDATE = /(?<=[\p{Ll}\p{N},;:)] )\p{Lu}[\p{L}\p{N}]+/gu;

/** Function words: capitalised, they are a headline's or an emphasis's, never a name. */
const FUNCTION_WORDS = new Set(
  (
    'a an the and or but nor so yet if then than as at by for from in into of off on onto out over to up with ' +
    'about after before between through during without within under is am are was were be been being have has ' +
    'had do does did will would shall should can could may might must not no all any both each every few more ' +
    'most other some such only own same too very just also now this that these those it its you your we our ' +
    'they their he his she her my me us them what which who why how when where here there ' +
    'monday tuesday wednesday thursday friday saturday sunday january february march april june july august ' +
    'september october november december'
  ).split(' '),
);

const UPPER = /\p{Lu}/u;
/** A code unit (or, for a letter outside the BMP such as a styled capital, its code point) is a letter or digit. */
const isWordStart = (c: number, ch: string) =>
  c < 128 ? (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122) : WORD_CHAR.test(ch);
const isUpper = (c: number, ch: string) => (c < 128 ? c >= 65 && c <= 90 : UPPER.test(ch));
const APOSTROPHE = 39;
const CURLY_APOSTROPHE = 0x2019;
const HYPHEN = 45;

/**
 * A line of at least 4 words where three in four or more start with a capital: a headline in
 * title case. A word is what WORD matches (a letter or digit, then letters, digits, apostrophes
 * and hyphens); counted by code point, since this runs on every line with a capital in every
 * scored post (a regex match per word cost a sixth of the scorer's time).
 */
function titleCase(line: string): boolean {
  let words = 0;
  let upper = 0;
  let inWord = false;
  for (let i = 0; i < line.length; ) {
    const cp = line.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const ch = cp < 128 ? '' : String.fromCodePoint(cp);
    if (isWordStart(cp, ch)) {
      if (!inWord) {
        words++;
        if (isUpper(cp, ch)) upper++;
        inWord = true;
      }
    } else inWord = inWord && (cp === APOSTROPHE || cp === CURLY_APOSTROPHE || cp === HYPHEN);
    i += width;
  }
  return words >= 4 && upper >= 0.75 * words;
}

/** The names of `text` as [start, end) offsets. */
export function nameRanges(text: string, lower = text.toLowerCase()): [number, number][] {
  const out: [number, number][] = [];
  let lineStart = -1;
  let lineEnd = -1;
  let skipLine = false;
  for (const m of text.matchAll(CANDIDATE)) {
    const at = m.index;
    if (at >= lineEnd) {
      lineStart = text.lastIndexOf('\n', at) + 1;
      const nl = text.indexOf('\n', at);
      lineEnd = nl === -1 ? text.length : nl;
      skipLine = titleCase(text.slice(lineStart, lineEnd));
    }
    if (skipLine) continue;
    const word = lower.slice(at, at + m[0].length);
    if (FUNCTION_WORDS.has(word) || writtenLower(lower, text, word)) continue;
    out.push([at, at + m[0].length]);
  }
  return out;
}

/** Whether the post also writes `word` in lower case as a word of its own (so it is a common word). */
function writtenLower(lower: string, text: string, word: string): boolean {
  if (lower.length !== text.length) return false;
  for (let i = lower.indexOf(word); i !== -1; i = lower.indexOf(word, i + 1)) {
    if (
      boundary(lower, i - 1) &&
      boundary(lower, i + word.length) &&
      text.charCodeAt(i) === lower.charCodeAt(i)
    )
      return true;
  }
  return false;
}

/** No letter or digit at `at` (or `at` is outside the text): the code unit alone, as before. */
function boundary(text: string, at: number): boolean {
  if (at < 0 || at >= text.length) return true;
  const c = text.charCodeAt(at);
  return !isWordStart(c, c < 128 ? '' : String.fromCharCode(c));
}

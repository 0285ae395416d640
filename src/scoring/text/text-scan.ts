/**
 * Hand scans of a post's text for the measures whose regexes were the scorer's hot spots (a
 * pattern anchored at the end, or one with a lookbehind, retries from every position): same
 * results, a fraction of the cost. Non-ASCII characters go through the Unicode classes.
 */

import { CodeUnits } from './code-units.ts';
import { isEmoji } from './emoji.ts';
import { PersonCount } from './person-length.ts';
import { SeenRanges } from './seen-ranges.ts';

const TAG_CHAR = /[\p{L}\p{N}_]/u;
const LOWER_OR_DIGIT = /^[\p{Ll}\p{N}]$/u;
const UPPER = /^\p{Lu}$/u;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/** The code point starting at `i` as a string (one or two code units). */
const charAt = (text: string, i: number): string => {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff ? text.slice(i, i + 2) : text[i]!;
};
/** The code point ending just before `end`. */
const charBefore = (text: string, end: number): string => {
  const c = text.charCodeAt(end - 1);
  return c >= 0xdc00 && c <= 0xdfff && end >= 2 ? text.slice(end - 2, end) : text[end - 1]!;
};

/** The text's code units for `countProperNouns`, and for `sentenceStats`. */
const TEXT_UNITS = new CodeUnits();
const SENTENCE_UNITS = new CodeUnits();
/** The lower-cased text's code units, and its sentences so far, for `sentenceStats`. */
const LOWER_SENTENCE_UNITS = new CodeUnits();
const SENTENCES_SEEN = new SeenRanges();
/** The text's characters as a person counts them, counted on the sentence scan. */
const PERSON_COUNT = new PersonCount();

/**
 * Capitalised words mid-sentence: after a space that follows a lower-case letter, a digit or
 * , ; : ) -- a hand scan from each space (the lookbehind regex costs several times more).
 */
export function countProperNouns(text: string): number {
  const u = TEXT_UNITS.of(text);
  let n = 0;
  for (let i = 1; i < text.length; i++) if (u[i] === 32 && properNounAfter(text, u, i)) n++;
  return n;
}

/** Where `countProperNouns`'s capitals stand: the offset of each, in order. */
export function capitalStarts(text: string): number[] {
  const u = TEXT_UNITS.of(text);
  const out: number[] = [];
  for (let i = 1; i < text.length; i++) if (u[i] === 32 && properNounAfter(text, u, i)) out.push(i + 1);
  return out;
}

/**
 * Whether a capitalised word follows the space at `i` (`u` the text's code units, i >= 1) and
 * the space follows a lower-case letter, a digit or , ; : ): `countProperNouns`'s test, also
 * made by `sentenceStats` at the spaces its scan passes.
 */
function properNounAfter(text: string, u: Uint16Array, i: number): boolean {
  const length = text.length;
  const b = u[i - 1]!;
  const before =
    b < 128
      ? (b >= 97 && b <= 122) || (b >= 48 && b <= 57) || b === 44 || b === 59 || b === 58 || b === 41
      : LOWER_OR_DIGIT.test(charBefore(text, i));
  if (!before || i + 1 >= length) return false;
  const c1 = u[i + 1]!;
  let k: number;
  if (c1 < 128) {
    if (c1 < 65 || c1 > 90) return false;
    k = i + 2;
  } else {
    const first = charAt(text, i + 1);
    if (!UPPER.test(first)) return false;
    k = i + 1 + first.length;
  }
  if (k >= length) return false;
  const c = u[k]!;
  return c < 128
    ? (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)
    : LETTER_OR_DIGIT.test(charAt(text, k));
}

/** Width (1 or 2 code units) of the hashtag character ending at `end`, 0 when there is none. */
const tagCharBefore = (text: string, end: number): number => {
  const c = text.charCodeAt(end - 1);
  if (c < 128)
    return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 ? 1 : 0;
  if (c >= 0xdc00 && c <= 0xdfff && end >= 2) return TAG_CHAR.test(text.slice(end - 2, end)) ? 2 : 0;
  return TAG_CHAR.test(text[end - 1]!) ? 1 : 0;
};
const isSpaceCode = (c: number) => c === 32 || c === 10 || c === 9 || c === 13 || c === 0xa0;

/**
 * The text without its closing run of hashtags (and the space around them), scanned backwards
 * by hand: the equivalent regex anchored at the end retries from every position of the text.
 */
export function withoutTrailingHashtags(text: string): string {
  let end = text.length;
  for (;;) {
    let i = end;
    while (i > 0 && isSpaceCode(text.charCodeAt(i - 1))) i--;
    let j = i;
    for (let w = j > 0 ? tagCharBefore(text, j) : 0; w > 0; w = j > 0 ? tagCharBefore(text, j) : 0) j -= w;
    if (j === i || j === 0 || text[j - 1] !== '#') return text.slice(0, end === text.length ? i : end);
    end = j - 1;
    if (end === 0) return '';
  }
}

/** ECMAScript white space and line terminators: what `\s` matches and `trim` removes. */
export function isJsSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * `s.split(/\s+/).length` without the split: one more than the runs of white space (the hook's
 * word count, read by the archetype and the heuristic judge; splitting made an array of strings
 * each time). `start` and `end` measure `s.slice(start, end)` without cutting it.
 */
export function splitPieces(s: string, start = 0, end = s.length): number {
  let pieces = 1;
  let inSpace = false;
  for (let i = start; i < end; i++) {
    const space = isJsSpace(s.charCodeAt(i));
    if (space && !inSpace) pieces++;
    inSpace = space;
  }
  return pieces;
}

const HAS_WORD = /[\p{L}\p{N}]/u;
export const isSentenceEnd = (c: number) => c === 46 || c === 33 || c === 63 || c === 0x2026;

/** A letter or digit in text.slice(start, end) (`u` its code units); ASCII read by hand, anything else by the regex. */
function holdsWord(text: string, u: Uint16Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = u[i]!;
    if (c >= 128) return HAS_WORD.test(text.slice(start, end));
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)) return true;
  }
  return false;
}

/**
 * Sentences: pieces between terminal punctuation (a run of . ! ? … followed by white space or
 * the end) or line breaks that hold a word, and the share of their characters that repeat an
 * earlier piece (case and spacing aside), and, counted in the same scan so the text is read
 * once, the capitalised words mid-sentence (`countProperNouns`; where they start, for names.ts),
 * the emoji and styled letters (`scanNonAscii`), the em dashes and the characters as a person
 * counts them (person-length.ts `personLength`). Scanned by hand: the same pieces as
 * `text.split(/[.!?…]+(?=\s|$)|\n/u)`. `lower` is `text.toLowerCase()`: when lower-casing kept
 * every character in place (no "İ", no final sigma to choose) a piece is compared with the
 * earlier ones as a range of `lower`'s code units (seen-ranges.ts), else as a string cut and
 * lower-cased on its own.
 */
export function sentenceStats(
  text: string,
  lower: string,
  /** `lower`'s code units when the caller has them (the tokeniser's copy, text-features.ts). */
  lowerUnits?: Uint16Array,
  /** When given, the offset of each capital counted in `properNouns` is pushed here (`capitalStarts`). */
  capitals?: number[],
  /**
   * When given, each sentence's start and end are pushed here as spans.ts `PostSpans.sentences`
   * cuts them: the piece trimmed, its closing run of . ! ? … kept (the same pieces, found on the
   * same scan; the shown signals' spans read them instead of cutting the text again).
   */
  ranges?: number[],
): {
  sentences: number;
  repeated: number;
  properNouns: number;
  emoji: number;
  styled: number;
  emDashes: number;
  chars: number;
} {
  const inPlace = lower.length === text.length && !text.includes('Σ');
  const u = SENTENCE_UNITS.of(text);
  const lu = inPlace ? (lowerUnits ?? LOWER_SENTENCE_UNITS.of(lower)) : u;
  const length = text.length;
  let n = 0;
  let total = 0;
  let repeated = 0;
  let properNouns = 0;
  let emoji = 0;
  let styled = 0;
  let emDashes = 0;
  // Where `scanNonAscii` reads its next character: it steps over the unit after a high surrogate.
  let nonAsciiFrom = 0;
  const seen = inPlace ? undefined : new Set<string>();
  SENTENCES_SEEN.begin();
  PERSON_COUNT.begin();
  // `closed` is where the piece's run of sentence ends ends (it stays out of the piece), or -1
  // when a line break or the text's end closes it.
  const piece = (start: number, end: number, closed: number) => {
    if (!holdsWord(text, u, start, end)) return;
    n++;
    while (isJsSpace(u[start]!)) start++;
    while (isJsSpace(u[end - 1]!)) end--;
    ranges?.push(start, closed === -1 ? end : closed);
    if (seen === undefined) {
      total += end - start;
      if (SENTENCES_SEEN.seen(lu, start, end)) repeated += end - start;
      return;
    }
    const key = text.slice(start, end).toLowerCase();
    total += key.length;
    if (seen.has(key)) repeated += key.length;
    else seen.add(key);
  };
  let from = 0;
  let i = 0;
  while (i < length) {
    const c = u[i]!;
    // Letters and most ASCII punctuation (@ to ~, then up to U+00A8) end nothing, start no
    // name and are not emoji: one test passes most characters.
    if (c > 63 && c < 0xa9) {
      i++;
      continue;
    }
    // Spaces next: most of the rest, and they end nothing.
    if (c === 32) {
      if (i >= 1 && properNounAfter(text, u, i)) {
        properNouns++;
        capitals?.push(i + 1);
      }
      i++;
      continue;
    }
    if (c === 10) {
      piece(from, i, -1);
      from = ++i;
    } else if (isSentenceEnd(c)) {
      let j = i + 1;
      while (j < length && isSentenceEnd(u[j]!)) j++;
      if (j === length || isJsSpace(u[j]!)) {
        piece(from, i, j);
        from = j;
      }
      i = j;
    } else {
      // Every code unit from U+0300 up but … reaches this branch, in order (the branches above
      // take units below it), and … joins nothing.
      if (c >= 0x0300) PERSON_COUNT.read(u, i, length, c);
      if (c === 0x2014) {
        // Em dashes, counted here rather than by `indexOf('—')`: V8 finds a two-byte character
        // by scanning for its high byte (0x20, a space) and checking each hit.
        emDashes++;
      } else if (c >= 0xa9 && i >= nonAsciiFrom) {
        // As `scanNonAscii` (the sentence ends this scan steps over are neither emoji nor styled).
        const wide = c >= 0xd800 && c <= 0xdbff;
        if (c === 0xd835) styled++;
        else if (isEmoji(text, i, c, wide)) emoji++;
        if (wide) nonAsciiFrom = i + 2;
      }
      i++;
    }
  }
  piece(from, length, -1);
  return {
    sentences: n,
    repeated: total === 0 ? 0 : repeated / total,
    properNouns,
    emoji,
    styled,
    emDashes,
    chars: PERSON_COUNT.length(text),
  };
}

import { CodeUnits } from './code-units.ts';

/**
 * A text's length as a person counts it: one per character seen (a grapheme cluster), so "👍🏽",
 * "❤️", a flag or a family emoji is 1, where UTF-16 counts 2 to 11. What the signals tell a
 * writer ("At 1,210 characters...") and the thresholds they state are counted this way; platform
 * limits are counted the platform's way (packages/client/src/text-length.ts), spans stay UTF-16
 * offsets.
 *
 * The code units less what does not start a character: a surrogate pair is one character; a
 * combining mark, a variation selector, a skin tone, a keycap, a tag, a zero-width joiner and
 * the point after it, and the second of a pair of regional indicators join the character before.
 * Scripts whose clusters need the full rules (Indic, Thai, Lao, Tibetan, Myanmar, Khmer, Hangul
 * jamo) go to Intl.Segmenter: segmenting every post cost about as much as scoring it.
 *
 * Only a code unit from U+0300 up can start any of these (`mayJoin`), so a scan that already
 * reads every code unit counts them on its way (`PersonCount`, fed by text-scan.ts
 * `sentenceStats` for the whole post): a regex scan of the post for them, run apart from it,
 * was 2.3% of the scorer's time (CPU profile, 2026-12-06).
 */

const SEGMENTER = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Whether the code point takes the full grapheme rules (scripts with spacing and joining marks). */
const complexScript = (cp: number) =>
  (cp >= 0x0900 && cp <= 0x109f) || (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x1780 && cp <= 0x17ff);

/** Whether the code point joins the character before it. */
const extends_ = (cp: number) =>
  (cp >= 0x0300 && cp <= 0x036f) ||
  (cp >= 0x1ab0 && cp <= 0x1aff) ||
  (cp >= 0x1dc0 && cp <= 0x1dff) ||
  (cp >= 0x20d0 && cp <= 0x20ff) ||
  (cp >= 0xfe00 && cp <= 0xfe0f) ||
  (cp >= 0xfe20 && cp <= 0xfe2f) ||
  (cp >= 0x1f3fb && cp <= 0x1f3ff) ||
  (cp >= 0xe0020 && cp <= 0xe007f) ||
  (cp >= 0xe0100 && cp <= 0xe01ef);

const ZWJ = 0x200d;
const isRegional = (cp: number) => cp >= 0x1f1e6 && cp <= 0x1f1ff;

/**
 * Whether a code unit can make a character's units more than one: a mark or selector that joins
 * the character before, a zero-width joiner, a script that takes the full rules (each in the
 * Basic Multilingual Plane), or a high surrogate (a pair, or a point past U+FFFF that joins).
 */
const mayJoin = (c: number) =>
  c >= 0x0300 &&
  ((c >= 0xd800 && c <= 0xdbff) ||
    c <= 0x036f ||
    (c >= 0x0900 && c <= 0x109f) ||
    (c >= 0x1100 && c <= 0x11ff) ||
    (c >= 0x1780 && c <= 0x17ff) ||
    (c >= 0x1ab0 && c <= 0x1aff) ||
    (c >= 0x1dc0 && c <= 0x1dff) ||
    c === ZWJ ||
    (c >= 0x20d0 && c <= 0x20ff) ||
    (c >= 0xfe00 && c <= 0xfe0f) ||
    (c >= 0xfe20 && c <= 0xfe2f));

/**
 * The count of one text, fed its code units in order by a scan that reads them all: `read` at
 * least every unit from U+0300 up (others are skipped here anyway), then `length`.
 */
export class PersonCount {
  /** Code units that start no character of their own, so far. */
  #joined = 0;
  /** Where the next character that can join starts (a pair's low half, or the point after a joiner, is skipped). */
  #from = 0;
  /** Where the last regional indicator ended when it opened a pair (-1: none open). */
  #regionalEnd = -1;
  #complex = false;

  begin(): void {
    this.#joined = 0;
    this.#from = 0;
    this.#regionalEnd = -1;
    this.#complex = false;
  }

  /** Reads code unit `c` at `i` of the text's units `u` (`n` of them). */
  read(u: Uint16Array, i: number, n: number, c: number): void {
    if (i < this.#from || !mayJoin(c) || this.#complex) return;
    let cp = c;
    let units = 1;
    if (c >= 0xd800 && c <= 0xdbff) {
      const low = i + 1 < n ? u[i + 1]! : 0;
      // A lone high surrogate is a character of its own.
      if (low < 0xdc00 || low > 0xdfff) return;
      cp = ((c - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
      units = 2;
    }
    this.#from = i + units;
    if (complexScript(cp)) {
      this.#complex = true;
      return;
    }
    if (cp === ZWJ) {
      // The joiner and the point after it are part of the character before.
      if (i === 0) return;
      let nextUnits = 0;
      if (i + 1 < n) {
        const next = u[i + 1]!;
        const low = i + 2 < n ? u[i + 2]! : 0;
        nextUnits = next >= 0xd800 && next <= 0xdbff && low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
      }
      this.#joined += 1 + nextUnits;
      this.#from = i + 1 + nextUnits;
      this.#regionalEnd = -1;
      return;
    }
    if (extends_(cp) && i > 0) {
      this.#joined += units;
      return;
    }
    if (isRegional(cp)) {
      if (this.#regionalEnd === i) {
        // The second of a pair: the flag is one character, its four units count one.
        this.#joined += 2;
        this.#regionalEnd = -1;
        return;
      }
      this.#regionalEnd = i + 2;
    } else this.#regionalEnd = -1;
    // A code point past U+FFFF is one character of two units.
    if (units === 2) this.#joined++;
  }

  /** The characters of `text`, the text whose units were read. */
  length(text: string): number {
    return this.#complex ? segmented(text) : text.length - this.#joined;
  }
}

const UNITS = new CodeUnits();
const COUNT = new PersonCount();

/** The characters of `text` as a person counts them. */
export function personLength(text: string): number {
  const u = UNITS.of(text);
  const n = text.length;
  COUNT.begin();
  for (let i = 0; i < n; i++) {
    const c = u[i]!;
    if (c >= 0x0300) COUNT.read(u, i, n, c);
  }
  return COUNT.length(text);
}

/**
 * The longest line's characters as a person counts them (paragraph-stats.ts measures lines:
 * a single line break already breaks the block on the feed); `longestUnits` is its UTF-16
 * count, which is the answer when no character of the text takes more than one unit.
 */
export function longestLineChars(text: string, chars: number, longestUnits: number): number {
  if (chars === text.length) return longestUnits;
  let longest = 0;
  for (let start = 0; ; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    // A line is at least as long in units as in characters: only longer ones can win.
    if (end - start > longest) longest = Math.max(longest, personLength(text.slice(start, end)));
    if (newline === -1) return longest;
    start = newline + 1;
  }
}

function segmented(text: string): number {
  let count = 0;
  for (const _ of SEGMENTER.segment(text)) count++;
  return count;
}

/**
 * A text's length as a person counts it: one per character seen (a grapheme cluster), so "👍🏽",
 * "❤️", a flag or a family emoji is 1, where UTF-16 counts 2 to 11. What the signals tell a
 * writer ("At 1,210 characters...") and the thresholds they state are counted this way; platform
 * limits are counted the platform's way (packages/client/src/text-length.ts), spans stay UTF-16
 * offsets.
 *
 * The code units less what does not start a character, found by one regex scan (`SPECIAL`): a
 * surrogate pair is one character; a combining mark, a variation selector, a skin tone, a keycap,
 * a tag, a zero-width joiner and the point after it, and the second of a pair of regional
 * indicators join the character before. Scripts whose clusters need the full rules (Indic,
 * Thai, Lao, Tibetan, Myanmar, Khmer, Hangul jamo) go to Intl.Segmenter: segmenting every post
 * cost about as much as scoring it. About 3 µs a 1,300-character bench post (2026-12-04).
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
 * What can make a character's units more than one: a surrogate pair, a mark or selector that
 * joins the character before, a zero-width joiner, a script that takes the full rules. Matched
 * by code unit, so V8's regex scan skips the rest of the text.
 */
const SPECIAL =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: the class matches marks as code units, one at a time, on purpose
  /[\u0300-\u036f\u0900-\u109f\u1100-\u11ff\u1780-\u17ff\u1ab0-\u1aff\u1dc0-\u1dff\u200d\u20d0-\u20ff\ufe00-\ufe0f\ufe20-\ufe2f]|[\ud800-\udbff][\udc00-\udfff]/g;

/** The characters of `text` as a person counts them. */
export function personLength(text: string): number {
  let count = text.length;
  SPECIAL.lastIndex = 0;
  // Where the last regional indicator ended when it opened a pair (-1: none open).
  let regionalEnd = -1;
  for (let m = SPECIAL.exec(text); m !== null; m = SPECIAL.exec(text)) {
    const at = m.index;
    const cp = text.codePointAt(at)!;
    const units = m[0].length;
    if (complexScript(cp)) return segmented(text);
    if (cp === ZWJ) {
      // The joiner and the point after it are part of the character before.
      if (at === 0) continue;
      const next = at + 1 < text.length ? text.codePointAt(at + 1)! : -1;
      const nextUnits = next === -1 ? 0 : next > 0xffff ? 2 : 1;
      count -= 1 + nextUnits;
      SPECIAL.lastIndex = at + 1 + nextUnits;
      regionalEnd = -1;
      continue;
    }
    if (extends_(cp) && at > 0) {
      count -= units;
      continue;
    }
    if (isRegional(cp)) {
      if (regionalEnd === at) {
        // The second of a pair: the flag is one character, its four units count one.
        count -= 2;
        regionalEnd = -1;
        continue;
      }
      regionalEnd = at + 2;
    } else regionalEnd = -1;
    // A code point past U+FFFF is one character of two units.
    if (units === 2) count--;
  }
  return count;
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

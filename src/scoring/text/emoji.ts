/**
 * Emoji and styled letters, for the sentence scan (text-scan.ts `sentenceStats`) and its test.
 */

import { CodeUnits } from './code-units.ts';

const EMOJI_CHAR = /^\p{Extended_Pictographic}$/u;
/**
 * Whether the code point is an emoji, by code point below U+20000 (0 not yet known, 1 yes, 2 no):
 * the regex test cost a call per non-ASCII character (’ and — in most posts), and the answer
 * depends on the code point alone.
 */
const EMOJI_KNOWN = new Uint8Array(0x20000);
export function isEmoji(text: string, i: number, c: number, wide: boolean): boolean {
  // A high surrogate with its low one is a code point past U+FFFF; a lone one reads as itself.
  const low = wide ? text.charCodeAt(i + 1) : 0;
  const cp = wide && low >= 0xdc00 && low <= 0xdfff ? ((c - 0xd800) << 10) + (low - 0xdc00) + 0x10000 : c;
  if (cp >= 0x20000) return EMOJI_CHAR.test(wide ? text.slice(i, i + 2) : text[i]!);
  let known = EMOJI_KNOWN[cp]!;
  if (known === 0) {
    known = EMOJI_CHAR.test(wide ? text.slice(i, i + 2) : text[i]!) ? 1 : 2;
    EMOJI_KNOWN[cp] = known;
  }
  return known === 1;
}
/** The text's code units for `scanNonAscii`. */
const UNITS = new CodeUnits();

/**
 * Emoji (Extended_Pictographic code points) and "styled" letters (Mathematical Alphanumeric
 * Symbols, U+1D400-U+1D7FF: the bold and italic Unicode some authors write with), in one pass
 * that tests only non-ASCII characters.
 */
export function scanNonAscii(text: string): { emoji: number; styled: number } {
  const u = UNITS.of(text);
  const length = text.length;
  let emoji = 0;
  let styled = 0;
  for (let i = 0; i < length; i++) {
    const c = u[i]!;
    if (c < 0xa9) continue;
    const wide = c >= 0xd800 && c <= 0xdbff;
    if (c === 0xd835) styled++;
    else if (isEmoji(text, i, c, wide)) emoji++;
    if (wide) i++;
  }
  return { emoji, styled };
}

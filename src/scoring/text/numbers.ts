/**
 * Numbers a reader can check: a numeral standing as a word of its own ("212", "3.5", "10,000",
 * "40%", "$3M", "10x", "3rd"), never digits inside a word ("B2B", "Web3", "COVID-19"), a tag, a
 * handle or a link, which name things rather than count them.
 */
export const NUMBER =
  /(?<![\p{L}\p{N}_#@/.,'’-])[$€£]?\d+(?:[.,]\d+)*(?:%|(?:k|m|bn|x|st|nd|rd|th|s)(?![\p{L}\p{N}_]))?(?![\p{L}\p{N}_]|[.,]\d)/giu;

const IN_NAME = /\bhttps?:\/\/\S+|\bwww\.\S+|[#@][\p{L}\p{N}_]+/giu;

/** `text` with links, hashtags and handles blanked out (same length, so offsets hold). */
export const withoutNames = (text: string): string =>
  /[#@/]|www\./i.test(text) ? text.replace(IN_NAME, (m) => ' '.repeat(m.length)) : text;

/** NUMBER tried at one position (anchored-counts.ts `sticky`). */
const NUMBER_AT = new RegExp(NUMBER.source, `${NUMBER.flags.replace('g', '')}y`);

/** What a NUMBER match starts with: a digit or a currency sign (found by the regex engine's own scan; a `charCodeAt` loop over a post cut from a larger string cost more). */
const OPENS_NUMBER = /[0-9$€£]/g;

/**
 * The numbers of `text` as [start, end) offsets: NUMBER's matches in the text with its links,
 * tags and handles blanked, tried only where one can start and from the end of the previous
 * one, as the global search does (it tried the lookbehind at every position of every post).
 */
export function numberRanges(text: string): [number, number][] {
  const out: [number, number][] = [];
  const t = withoutNames(text);
  OPENS_NUMBER.lastIndex = 0;
  while (OPENS_NUMBER.test(t)) {
    const i = OPENS_NUMBER.lastIndex - 1;
    NUMBER_AT.lastIndex = i;
    if (!NUMBER_AT.test(t)) continue;
    out.push([i, NUMBER_AT.lastIndex]);
    OPENS_NUMBER.lastIndex = NUMBER_AT.lastIndex;
  }
  return out;
}

export function countNumbers(text: string): number {
  return /\d/.test(text) ? numberRanges(text).length : 0;
}

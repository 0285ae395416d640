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

/** The numbers of `text` as [start, end) offsets. */
export function numberRanges(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of withoutNames(text).matchAll(NUMBER)) out.push([m.index, m.index + m[0].length]);
  return out;
}

export function countNumbers(text: string): number {
  if (!/\d/.test(text)) return 0;
  let n = 0;
  for (const _ of withoutNames(text).matchAll(NUMBER)) n++;
  return n;
}

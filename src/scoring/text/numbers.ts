/**
 * Numbers a reader can check: a numeral standing as a word of its own ("212", "3.5", "10,000",
 * "40%", "$3M", "10x", "3rd"), never digits inside a word ("B2B", "Web3", "COVID-19"), a tag, a
 * handle or a link, which name things rather than count them.
 */
export const NUMBER =
  /(?<![\p{L}\p{N}_#@/.,'’-])[$€£]?\d+(?:[.,]\d+)*(?:%|(?:k|m|bn|x|st|nd|rd|th|s)(?![\p{L}\p{N}_]))?(?![\p{L}\p{N}_]|[.,]\d)/giu;

const IN_NAME = /\bhttps?:\/\/\S+|\bwww\.\S+|[#@][\p{L}\p{N}_]+/giu;

/** `text` with links, hashtags and handles blanked out (same length, so offsets hold). */
export function withoutNames(text: string): string {
  const starts = nameStarts(text);
  if (starts.length === 0) return text;
  let out = '';
  let from = 0;
  for (const start of starts) {
    if (start < from) continue;
    IN_NAME_AT.lastIndex = start;
    if (!IN_NAME_AT.test(text)) continue;
    const end = IN_NAME_AT.lastIndex;
    out += text.slice(from, start) + ' '.repeat(end - start);
    from = end;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** IN_NAME tried at one position (anchored-counts.ts `sticky`). */
const IN_NAME_AT = new RegExp(IN_NAME.source, `${IN_NAME.flags.replace('g', '')}y`);
/** What every IN_NAME match holds at a fixed distance from its start: "#" or "@" (0), "://" (4 or 5), "www." (0, case aside). */
const NAME_MARK = /[#@]|:\/\/|www\./gi;

/**
 * Where an IN_NAME match can start, in order (repeats allowed): `withoutNames` tries the pattern
 * only there, from the end of the previous match, as the global replace goes, so the pattern is
 * not tried at every position of a post (it was most of the numbers' time, 2026-12-03). A "/"
 * alone (and/or, 24/7) starts none.
 */
function nameStarts(text: string): number[] {
  const out: number[] = [];
  NAME_MARK.lastIndex = 0;
  for (let m = NAME_MARK.exec(text); m !== null; m = NAME_MARK.exec(text)) {
    const at = m.index;
    if (text.charCodeAt(at) !== 58) out.push(at);
    else {
      if (at >= 5) out.push(at - 5);
      if (at >= 4) out.push(at - 4);
    }
    // Marks overlap ("#@", "www.#"): go on from the next character, not past the mark.
    NAME_MARK.lastIndex = at + 1;
  }
  return out.sort((a, b) => a - b);
}

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
    if (!isListMarker(t, i, NUMBER_AT.lastIndex)) out.push([i, NUMBER_AT.lastIndex]);
    OPENS_NUMBER.lastIndex = NUMBER_AT.lastIndex;
  }
  return out;
}

/**
 * A list's item number, which orders points rather than counting anything: "1." or "2)" opening
 * a line ("(3)" too), or "1) … 2) …" inside a sentence, a number of one or two digits closed by a
 * bracket that no "(" on its line opened. "(founded 2021)" and "12.5" stay numbers.
 */
export function isListMarker(t: string, start: number, end: number): boolean {
  if (end - start > 2 || t.charCodeAt(start) > 57) return false;
  const after = t.charCodeAt(end);
  const lineStart = t.lastIndexOf('\n', start - 1) + 1;
  const before = t.slice(lineStart, start);
  if (after === CLOSE) return !before.includes('(') || /^[ \t]*\($/.test(before);
  // "1. Ship it": the stop must be followed by a space, or "3.5" would have been one number.
  return after === STOP && /^[ \t]*$/.test(before) && /[ \t]/.test(t.charAt(end + 1));
}

const CLOSE = 41; // ")"
const STOP = 46; // "."

export function countNumbers(text: string): number {
  return /\d/.test(text) ? numberRanges(text).length : 0;
}

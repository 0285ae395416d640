/**
 * Names: people, products, places, written with a capital inside a sentence ("with Stripe",
 * "Priya and I"). A capital that only starts a title-case headline ("How To Build A Team"), or
 * a common word capitalised for emphasis or a heading ("The", "Team" when the post also writes
 * "team"), names nothing.
 */

const CANDIDATE = /(?<=[\p{Ll}\p{N},;:)] )\p{Lu}[\p{L}\p{N}]+/gu;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const UPPER_START = /^\p{Lu}/u;

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

/** A line of at least 4 words where three in four or more start with a capital: a headline in title case. */
function titleCase(line: string): boolean {
  let words = 0;
  let upper = 0;
  for (const m of line.matchAll(WORD)) {
    words++;
    if (UPPER_START.test(m[0])) upper++;
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
    const before = lower.charCodeAt(i - 1);
    const after = lower.charCodeAt(i + word.length);
    const boundary = (c: number) => Number.isNaN(c) || !/[\p{L}\p{N}]/u.test(String.fromCharCode(c));
    if (boundary(before) && boundary(after) && text.charCodeAt(i) === lower.charCodeAt(i)) return true;
  }
  return false;
}

export const countNames = (text: string, lower?: string): number => nameRanges(text, lower).length;

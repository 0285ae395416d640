/**
 * Names: people, products, places, written with a capital inside a sentence ("with Stripe",
 * "Priya and I"). A capital that only starts a title-case headline ("How To Build A Team"), or
 * a common word capitalised for emphasis or a heading ("The", "Team" when the post also writes
 * "team"), names nothing.
 *
 * A candidate is what `/(?<=[\p{Ll}\p{N},;:)] )\p{Lu}[\p{L}\p{N}]+/gu` matches: its starts are
 * the capitals the sentence scan already finds (text-scan.ts `sentenceStats`, `capitalStarts`),
 * so the pattern is not run again; its end is the run of letters and digits from there.
 */

import { isUpperPoint, isWordPoint, isWordUnit } from './char-classes.ts';
import { CodeUnits } from './code-units.ts';
import { capitalStarts } from './text-scan.ts';

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

const APOSTROPHE = 39;
const CURLY_APOSTROPHE = 0x2019;
const HYPHEN = 45;

/** The text's code units, and the lower-cased text's when the caller has none. */
const TEXT_UNITS = new CodeUnits();
const LOWER_UNITS = new CodeUnits();

/** The code point at `i` of `u` (a text of `n` units): a surrogate pair's, else the unit's own. */
function pointAt(u: Uint16Array, i: number, n: number): number {
  const c = u[i]!;
  if (c < 0xd800 || c > 0xdbff || i + 1 >= n) return c;
  const low = u[i + 1]!;
  return low >= 0xdc00 && low <= 0xdfff ? ((c - 0xd800) << 10) + (low - 0xdc00) + 0x10000 : c;
}

/** What a headline's word count reads of an ASCII code unit (`titleCase`). */
const OTHER = 0;
const SMALL = 1;
const CAPITAL = 2;
const JOINS = 3;
const ASCII_CLASS = new Uint8Array(128);
for (let c = 48; c <= 57; c++) ASCII_CLASS[c] = SMALL;
for (let c = 97; c <= 122; c++) ASCII_CLASS[c] = SMALL;
for (let c = 65; c <= 90; c++) ASCII_CLASS[c] = CAPITAL;
ASCII_CLASS[APOSTROPHE] = JOINS;
ASCII_CLASS[HYPHEN] = JOINS;

/**
 * Whether `u[start..end)` is a line of at least 4 words where three in four or more start with
 * a capital: a headline in title case. A word is a letter or digit, then letters, digits,
 * apostrophes and hyphens (the pattern `[\p{L}\p{N}][\p{L}\p{N}'’-]*`), read by code point; ASCII
 * by a table, as this reads every line that holds a capital.
 */
function titleCase(u: Uint16Array, start: number, end: number): boolean {
  let words = 0;
  let upper = 0;
  let inWord = false;
  for (let i = start; i < end; ) {
    const c = u[i]!;
    let kind: number;
    if (c < 128) {
      kind = ASCII_CLASS[c]!;
      i++;
    } else {
      const cp = pointAt(u, i, end);
      kind = isWordPoint(cp) ? (isUpperPoint(cp) ? CAPITAL : SMALL) : cp === CURLY_APOSTROPHE ? JOINS : OTHER;
      i += cp > 0xffff ? 2 : 1;
    }
    if (kind === SMALL || kind === CAPITAL) {
      if (!inWord) {
        words++;
        if (kind === CAPITAL) upper++;
        // Decided once the words left cannot bring the capitals to three in four: each takes
        // two units at least (a separator and a letter), and title case needs `upper >= 3 *
        // small`. Most lines holding a capital are prose, decided in about half their length.
        else if (3 * (words - upper) > upper + ((end - i + 1) >> 1)) return false;
        inWord = true;
      }
    } else if (kind === OTHER) inWord = false;
  }
  return words >= 4 && upper >= 0.75 * words;
}

/** The end of the run of letters and digits (by code point) starting at `at`. */
function wordEnd(u: Uint16Array, at: number, n: number): number {
  let i = at;
  while (i < n) {
    const cp = pointAt(u, i, n);
    if (!isWordPoint(cp)) break;
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

/**
 * The names of `text` as [start, end) offsets. `starts` are where its candidates start
 * (`capitalStarts`, in order); `lowerUnits` `lower`'s code units and `lowerRuns` its runs of
 * letters and digits (tokenizer.ts `scanWords`, `runs`) when the caller has them.
 */
export function nameRanges(
  text: string,
  lower = text.toLowerCase(),
  starts: readonly number[] = capitalStarts(text),
  lowerUnits?: Uint16Array,
  lowerRuns?: readonly number[],
): [number, number][] {
  const out: [number, number][] = [];
  if (starts.length === 0) return out;
  const n = text.length;
  const u = TEXT_UNITS.of(text);
  // The candidates' words, lower-cased, beside their ranges.
  const words: string[] = [];
  let lineEnd = -1;
  let skipLine = false;
  for (const at of starts) {
    if (at >= lineEnd) {
      const lineStart = text.lastIndexOf('\n', at) + 1;
      const nl = text.indexOf('\n', at);
      lineEnd = nl === -1 ? n : nl;
      skipLine = titleCase(u, lineStart, lineEnd);
    }
    if (skipLine) continue;
    const end = wordEnd(u, at, n);
    const word = lower.slice(at, end);
    if (FUNCTION_WORDS.has(word)) continue;
    out.push([at, end]);
    words.push(word);
  }
  if (out.length === 0 || lower.length !== n) return out;
  const common = writtenLower(lower, u, lowerUnits ?? LOWER_UNITS.of(lower), out, words, lowerRuns);
  return common.size === 0 ? out : out.filter((_, k) => !common.has(words[k]!));
}

/** A run length's bit in a mask of lengths: bit 0 stands for 32 and over. */
const lengthBit = (length: number) => (length < 32 ? 1 << length : 1);

/** Not a letter or digit, as a code unit alone (a surrogate is neither). */
const isBoundaryUnit = (c: number) => !isWordUnit(c);

/** A run's length and first and last code units as one number: a run is cut and looked up only when a wanted word has its key. */
const runKey = (first: number, last: number, length: number) =>
  (((first * 65_536 + last) * 64) | 0) + Math.min(length, 63);

/**
 * Which of the candidates' words (lower-cased) the post also writes in lower case as a word of
 * its own, so they are common words: an occurrence in `lower` with no letter or digit code unit
 * on either side, whose first code unit lower-casing left as it was in the text. For a word of
 * letters and digits alone that is a whole run of them in `lower`, so one scan of the runs
 * answers for all the candidates (searching the text again for each candidate's word was 7% of
 * the scorer's time, 2026-12-03); a word holding any other code unit (a letter past U+FFFF) is
 * searched as before. `tu` and `lu` are the code units of the text and of `lower`. `words` are the
 * candidates' words. `runs`, when given, are those runs, start and end (the tokeniser found them
 * on its scan: reading them is about a sixth of the units, 2026-12-03).
 */
function writtenLower(
  lower: string,
  tu: Uint16Array,
  lu: Uint16Array,
  candidates: readonly [number, number][],
  words: readonly string[],
  runs: readonly number[] | undefined,
): Set<string> {
  const n = lower.length;
  const common = new Set<string>();
  const wanted = new Set<string>();
  const keys = new Set<number>();
  for (let k = 0; k < candidates.length; k++) {
    const [s, e] = candidates[k]!;
    const word = words[k]!;
    let plain = true;
    for (let i = s; i < e; i++) if (isBoundaryUnit(lu[i]!)) plain = false;
    if (plain) {
      wanted.add(word);
      keys.add(runKey(lu[s]!, lu[e - 1]!, e - s));
    } else if (searchedLower(lower, tu, lu, word)) common.add(word);
  }
  if (wanted.size === 0) return common;
  if (runs !== undefined) {
    // A run's length is tested against a mask of the wanted lengths before its key is looked up
    // (most runs are short common words).
    let lengths = 0;
    for (const [s, e] of candidates) lengths |= lengthBit(e - s);
    for (let r = 0; r < runs.length; r += 2) {
      const start = runs[r]!;
      const end = runs[r + 1]!;
      if ((lengths & lengthBit(end - start)) === 0 || tu[start] !== lu[start]) continue;
      if (!keys.has(runKey(lu[start]!, lu[end - 1]!, end - start))) continue;
      const word = lower.slice(start, end);
      if (wanted.has(word)) common.add(word);
    }
    return common;
  }
  let i = 0;
  while (i < n) {
    if (isBoundaryUnit(lu[i]!)) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && !isBoundaryUnit(lu[i]!)) i++;
    if (tu[start] !== lu[start] || !keys.has(runKey(lu[start]!, lu[i - 1]!, i - start))) continue;
    const word = lower.slice(start, i);
    if (wanted.has(word)) common.add(word);
  }
  return common;
}

/** `writtenLower`'s test for one word, by searching `lower` for it. */
function searchedLower(lower: string, tu: Uint16Array, lu: Uint16Array, word: string): boolean {
  const n = lower.length;
  for (let i = lower.indexOf(word); i !== -1; i = lower.indexOf(word, i + 1)) {
    const end = i + word.length;
    if ((i === 0 || isBoundaryUnit(lu[i - 1]!)) && (end >= n || isBoundaryUnit(lu[end]!)) && tu[i] === lu[i])
      return true;
  }
  return false;
}

/**
 * Names: people, products, places, written with a capital inside a sentence ("with Stripe",
 * "Priya and I"). A capital that only starts a title-case headline ("How To Build A Team"), or
 * a common word capitalised for emphasis or a heading ("The", "Team" when the post also writes
 * "team"), names nothing.
 *
 * A capital on a word that real posts write in lower case far more often (common-words.json,
 * built by scripts/build-common-words.ts from the training posts and wink's lexicon) is a
 * heading's or an emphasis's too ("Be Honest:", "Key Takeaways", "our Working Groups"), unless
 * something else says it is a name: a capital inside the word ("HubSpot"), or a capitalised
 * word beside it that is no common word ("Will Smith", "Microsoft Teams").
 *
 * A candidate is what `/(?<=[\p{Ll}\p{N},;:)] )\p{Lu}[\p{L}\p{N}]+/gu` matches: its starts are
 * the capitals the sentence scan already finds (text-scan.ts `sentenceStats`, `capitalStarts`),
 * so the pattern is not run again; its end is the run of letters and digits from there.
 */

import { isUpperPoint, isWordPoint, isWordUnit } from './char-classes.ts';
import { CodeUnits } from './code-units.ts';
import commonWords from './common-words.json' with { type: 'json' };
import { FNV_OFFSET, FNV_PRIME, finishHash, StringIds } from './string-table.ts';
import { capitalStarts } from './text-scan.ts';

/** Function words: capitalised, they are a headline's or an emphasis's, never a name. */
const FUNCTION_WORDS = (
  'a an the and or but nor so yet if then than as at by for from in into of off on onto out over to up with ' +
  'about after before between through during without within under is am are was were be been being have has ' +
  'had do does did will would shall should can could may might must not no all any both each every few more ' +
  'most other some such only own same too very just also now this that these those it its you your we our ' +
  'they their he his she her my me us them what which who why how when where here there ' +
  'monday tuesday wednesday thursday friday saturday sunday january february march april june july august ' +
  'september october november december'
).split(' ');

/**
 * The function words and the words the posts write in lower case (common-words.json, built by
 * scripts/build-common-words.ts), lower-cased, in one table of their own with what each is
 * (`FUNCTION_WORD`, `COMMON_WORD`, or both): a candidate's word is looked up once, by the
 * lower-cased text's code units, as the tokeniser looks up tokens (string-table.ts). Two `Set`
 * lookups of the word cut as a string were 3.1% of the scorer's time, a quarter of finding names
 * (CPU profile, 2026-12-06).
 */
const FUNCTION_WORD = 1;
const COMMON_WORD = 2;
const { ids: NAME_WORDS, kinds: NAME_WORD_CLASS } = nameWords();

/** The table of the function and common words, built once at load, and what each is by id. */
function nameWords(): { ids: StringIds; kinds: Uint8Array } {
  const ids = new StringIds();
  const kinds: number[] = [];
  const add = (word: string, kind: number) => {
    const id = ids.add(word);
    kinds[id] = (kinds[id] ?? 0) | kind;
  };
  for (const word of FUNCTION_WORDS) add(word, FUNCTION_WORD);
  for (const word of (commonWords as { words: string[] }).words) add(word, COMMON_WORD);
  return { ids, kinds: Uint8Array.from(kinds) };
}

/** What `word` (lower-cased) is: `FUNCTION_WORD`, `COMMON_WORD`, both (bits), or 0. */
function classOf(word: string): number {
  const id = NAME_WORDS.idOf(word);
  return id === -1 ? 0 : NAME_WORD_CLASS[id]!;
}

/** `classOf` the word whose code units are `u[start..end)`, without cutting it. */
function classOfUnits(u: Uint16Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ u[i]!, FNV_PRIME);
  const id = NAME_WORDS.idOfUnits(u, start, end, finishHash(h));
  return id === -1 ? 0 : NAME_WORD_CLASS[id]!;
}

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
  const lu = lowerUnits ?? LOWER_UNITS.of(lower);
  // The candidates' words, lower-cased, beside their ranges, whether each is a common word, and
  // where the candidate one space before each starts (-1 when there is none): a run of capitals
  // mid-sentence.
  const words: string[] = [];
  const common: boolean[] = [];
  const runFrom: number[] = [];
  let lineEnd = -1;
  let skipLine = false;
  let lastStart = -1;
  let lastEnd = -2;
  for (const at of starts) {
    if (at >= lineEnd) {
      const lineStart = text.lastIndexOf('\n', at) + 1;
      const nl = text.indexOf('\n', at);
      lineEnd = nl === -1 ? n : nl;
      skipLine = titleCase(u, lineStart, lineEnd);
    }
    if (skipLine) continue;
    const end = wordEnd(u, at, n);
    const before = lastEnd === at - 1 ? lastStart : -1;
    lastStart = at;
    lastEnd = end;
    // The word is `lower.slice(at, end)`, read where it stands in `lower`.
    const lowerEnd = Math.min(end, lower.length);
    const kind = classOfUnits(lu, Math.min(at, lowerEnd), lowerEnd);
    if ((kind & FUNCTION_WORD) !== 0) continue;
    out.push([at, end]);
    words.push(lower.slice(at, end));
    common.push((kind & COMMON_WORD) !== 0);
    runFrom.push(before);
  }
  if (out.length === 0) return out;
  const written = lower.length === n ? writtenLower(lower, u, lu, out, words, lowerRuns) : NONE;
  // A common word of the posts is a name's only with evidence, read for the candidates left
  // (most common words capitalised are also written in lower case in the post itself).
  const names: [number, number][] = [];
  for (let k = 0; k < out.length; k++) {
    const word = words[k]!;
    if (written.has(word)) continue;
    if (common[k]! && !inRun(text, u, runFrom[k]!) && !nameEvidence(text, u, out[k]![0], out[k]![1]))
      continue;
    names.push(out[k]!);
  }
  return names;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Whether a candidate continues a run of capitals mid-sentence: the candidate before it, at
 * `from` one space away (-1: none), is itself mid-sentence, not a list item's first word after
 * its number ("1) Revenue Generation"). "and Planning Commission", "of The Compound".
 */
const inRun = (text: string, u: Uint16Array, from: number) => from !== -1 && !startsItsLine(text, u, from);

const SMALL_LETTER = /\p{Ll}/u;
const CAPITAL_INSIDE = /\p{Ll}\p{Lu}/u;
const LETTER = /\p{L}/u;

/** Whether ASCII code unit `c` is a letter. */
const isAsciiLetter = (c: number) => (c | 32) >= 97 && (c | 32) <= 122;

/** Whether no letter stands before `at` on its line ("1) Revenue": a list item's first word). */
function startsItsLine(text: string, u: Uint16Array, at: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const c = u[i]!;
    if (c === 10) return true;
    if (c >= 128) return !LETTER.test(text.slice(text.lastIndexOf('\n', at) + 1, at));
    if (isAsciiLetter(c)) return false;
  }
  return true;
}

/** The code point ending at `u[i]` and where it starts: a surrogate pair's, else the unit's own. */
function pointStartBefore(u: Uint16Array, i: number): number {
  const c = u[i]!;
  if (c < 0xdc00 || c > 0xdfff || i === 0) return i;
  const high = u[i - 1]!;
  return high >= 0xd800 && high <= 0xdbff ? i - 1 : i;
}

/** Whether `text[start..end)` (code units `u`) holds a lower-case letter followed by a capital ("HubSpot"). */
function capitalInside(text: string, u: Uint16Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = u[i]!;
    if (c >= 128) return CAPITAL_INSIDE.test(text.slice(start, end));
    if (c >= 65 && c <= 90 && i > start && u[i - 1]! >= 97 && u[i - 1]! <= 122) return true;
  }
  return false;
}

/** Whether `text[start..end)` holds a lower-case letter: an acronym ("AI", "CEO") has none. */
function hasSmallLetter(text: string, u: Uint16Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = u[i]!;
    if (c >= 128) return SMALL_LETTER.test(text.slice(start, end));
    if (c >= 97 && c <= 122) return true;
  }
  return false;
}

/**
 * Whether the common word capitalised mid-sentence at `text[at..end)` (code units `u`) is a
 * name's all the same, when it continues no run (`inRun`): it has a capital inside ("HubSpot"); it starts
 * a run of capitalised words ("and Planning Commission meetings": the next word, one space
 * away, is capitalised and no function word); or the word before it, one space away, is
 * name-like wherever it stands ("Microsoft Teams": capitalised, with a lower-case letter, no
 * common or function word). A heading's second word ("Key Takeaways", "Be Honest:" at a line's
 * start) has none of these. Read by code unit: this runs for every common word capitalised.
 */
function nameEvidence(text: string, u: Uint16Array, at: number, end: number): boolean {
  if (capitalInside(text, u, at, end)) return true;
  const n = text.length;
  if (end + 1 < n && u[end] === 32 && isUpperPoint(pointAt(u, end + 1, n))) {
    const next = text.slice(end + 1, wordEnd(u, end + 1, n)).toLowerCase();
    if ((classOf(next) & FUNCTION_WORD) === 0) return true;
  }
  // The word before: the run of letters and digits ending at the space before `at`.
  let start = at - 1;
  for (let i = at - 2; i >= 0; ) {
    const s = pointStartBefore(u, i);
    if (!isWordPoint(pointAt(u, s, n))) break;
    start = s;
    i = s - 1;
  }
  if (start === at - 1 || !isUpperPoint(pointAt(u, start, n)) || !hasSmallLetter(text, u, start, at - 1))
    return false;
  const before = text.slice(start, at - 1).toLowerCase();
  return classOf(before) === 0;
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

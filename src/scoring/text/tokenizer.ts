import { CodeUnits } from './code-units.ts';
import { FNV_OFFSET, FNV_PRIME, finishHash, hashString } from './string-table.ts';
import {
  type LookedUpWords,
  TOKEN_MARK,
  TOKEN_NUMBER,
  TOKEN_WORD,
  wordGeneration,
  wordIdOf,
  wordIdOfStraightUnits,
  wordIdOfUnits,
  wordKey,
} from './word-facts.ts';

/**
 * The scorer's tokeniser: a post's lower-cased words, each looked up in the word table
 * (word-facts.ts) as it is read. phrases.ts matches its phrase lists over these tokens.
 */

const A = 97;
const Z = 122;
const ZERO = 48;
const NINE = 57;
const NON_ASCII_WORD = /[\p{L}\p{N}]/u;

/** ASCII word characters of lower-cased text, as a table (the hot path of tokenising). */
const ASCII_WORD = new Uint8Array(128);
for (let c = A; c <= Z; c++) ASCII_WORD[c] = 1;
for (let c = ZERO; c <= NINE; c++) ASCII_WORD[c] = 1;

/** Non-ASCII code units already classified: 0 not yet, 1 a word character, 2 not one. */
const NON_ASCII_CLASS = new Uint8Array(0x10000);

function isWordCode(c: number): boolean {
  if (c < 128) return ASCII_WORD[c] === 1;
  let known = NON_ASCII_CLASS[c]!;
  if (known === 0) {
    known = NON_ASCII_WORD.test(String.fromCharCode(c)) ? 1 : 2;
    NON_ASCII_CLASS[c] = known;
  }
  return known === 1;
}

const isDigit = (c: number) => c >= ZERO && c <= NINE;

/** The lower-cased text's code units, read by `tokenizeWords`. */
const LOWER_UNITS = new CodeUnits();

/**
 * Lower-cased words, scanned by hand (a regex with Unicode classes costs several times
 * more): letters and digits, joined across an apostrophe (' or ’, unified to ') or a hyphen
 * between word characters, and across . or , between digits ("3.5", "10,000"). `?` and
 * `"` (straight or curly) are tokens of their own, because some phrases end in them.
 */
export const tokenize = (text: string): string[] => tokenizeWords(text).tokens;

/**
 * `tokenize`, and the tokens looked up in the word table (word-facts.ts) in the same scan: a
 * registered word is found from the text's code units without being cut out, and its token is
 * the table's own string (equal to the cut, so no copy is made); only other words are cut.
 * `lower` is the lower-cased text it scanned; `headEnds` the end offsets of the tokens that end
 * by `headEnd`, so a caller can take the tokens of the text's opening without cutting it again.
 */
export function tokenizeWords(
  text: string,
  headEnd = 0,
): { tokens: string[]; words: LookedUpWords; lower: string; headEnds: number[] } {
  return scanTokens(text, headEnd, true);
}

/**
 * `tokenizeWords` without any token strings: the words no table knows (about 57 of a bench
 * post's 210 tokens; cutting them was about 2.5 µs of the scorer's 90 per post, 2026-11-27) are
 * recorded by where they stand in `lower` (`words.unknown`), and no list of strings is built for
 * the others either (writing the table's string for each known word into a list was about 1.5%
 * of the scorer's time, 2026-11-29). Phrase matching and the distinct-word count read ids and
 * ranges; `cutTokens` makes the strings for a reader that wants them.
 */
export function scanWords(text: string, headEnd = 0): WordScan {
  return scanTokens(text, headEnd, false);
}

/** The first `count` tokens of a `scanWords` scan (`words`), as `tokenize` cuts them. */
export function cutTokens(words: LookedUpWords, count: number): string[] {
  const out = new Array<string>(count);
  const { ids, kinds, hashes, unknown, lower } = words;
  let u = 0;
  for (let i = 0; i < count; i++) {
    const id = ids[i]!;
    if (id !== -1) out[i] = wordKey(id);
    else if (kinds[i] === TOKEN_MARK) out[i] = hashes[i] === QUESTION_HASH ? '?' : '"';
    else {
      // `unknown` holds the ranges of the words (not `?` or `"`) the table does not know.
      const word = lower!.slice(unknown![2 * u]!, unknown![2 * u + 1]!);
      u++;
      // A ’ stands inside a token only where it joins two parts (an apostrophe, read as ').
      out[i] = word.includes('’') ? word.replaceAll('’', "'") : word;
    }
  }
  return out;
}

/** What one scan of a text gives: its words looked up, its lower case, and its runs. */
interface WordScan {
  count: number;
  words: LookedUpWords;
  lower: string;
  headEnds: number[];
  /** `lower`'s code units, read before the next scan reuses them. */
  units: Uint16Array;
  /**
   * Without `cut`: every run of letters and digits of `lower` (code units for which `isWordCode`
   * holds, with none on either side), start and end in order. A token is such runs joined by an
   * apostrophe, a hyphen or a digit's point or comma, so the scan finds them on its way; names.ts
   * reads them instead of scanning the text again.
   */
  runs: number[];
}

function scanTokens(text: string, headEnd: number, cut: boolean): WordScan & { tokens: string[] } {
  const s = text.toLowerCase();
  const n = s.length;
  const u = LOWER_UNITS.of(s);
  // The lists are made about as long as the text's tokens usually are (a token and its space
  // take about six characters) and written by index, then cut to length: pushing into four
  // lists that start empty and grow several times cost twice as much (2026-11-27). A longer
  // list just grows on; the guess is capped, as V8 keeps a very long `new Array` as a dictionary.
  const guess = Math.min((n >> 2) + 8, 4096);
  // Only `tokenizeWords` (cut) wants the strings.
  const tokens = new Array<string>(cut ? guess : 0);
  const ids = new Array<number>(guess);
  const hashes = new Array<number>(guess);
  const kinds = new Array<number>(guess);
  let count = 0;
  const headEnds: number[] = [];
  const unknown: number[] | undefined = cut ? undefined : [];
  const runs: number[] = [];
  const generation = wordGeneration();
  let i = 0;
  while (i < n) {
    let c = u[i]!;
    if (!isWordCode(c)) {
      if (c === 63 || c === 34 || c === 0x201c || c === 0x201d) {
        const token = c === 63 ? '?' : '"';
        const hash = c === 63 ? QUESTION_HASH : QUOTE_HASH;
        if (cut) tokens[count] = token;
        hashes[count] = hash;
        ids[count] = wordIdOf(token, hash);
        kinds[count++] = TOKEN_MARK;
        if (i < headEnd) headEnds.push(i + 1);
      }
      i++;
      continue;
    }
    const start = i;
    let runStart = i;
    let curly = false;
    // The token's hash (string-table.ts `hashRange`), computed as its characters are read.
    let h = Math.imul(FNV_OFFSET ^ c, FNV_PRIME);
    i++;
    while (i < n) {
      c = u[i]!;
      if (isWordCode(c)) {
        h = Math.imul(h ^ c, FNV_PRIME);
        i++;
        continue;
      }
      const joins =
        i + 1 < n &&
        ((c === 39 || c === 0x2019 || c === 45) && isWordCode(u[i + 1]!)
          ? true
          : (c === 46 || c === 44) && isDigit(u[i - 1]!) && isDigit(u[i + 1]!));
      if (!joins) break;
      if (!cut) runs.push(runStart, i);
      runStart = i + 1;
      if (c === 0x2019) curly = true;
      h = Math.imul(h ^ (c === 0x2019 ? 39 : c), FNV_PRIME);
      h = Math.imul(h ^ u[i + 1]!, FNV_PRIME);
      i += 2;
    }
    if (!cut) runs.push(runStart, i);
    const hash = finishHash(h);
    let id: number;
    if (curly) {
      id = wordIdOfStraightUnits(u, start, i, hash);
      if (cut) tokens[count] = id !== -1 ? wordKey(id) : s.slice(start, i).replace(/’/g, "'");
    } else {
      id = wordIdOfUnits(u, start, i, hash);
      if (cut) tokens[count] = id !== -1 ? wordKey(id) : s.slice(start, i);
    }
    if (id === -1 && unknown !== undefined) unknown.push(start, i);
    hashes[count] = hash;
    ids[count] = id;
    kinds[count++] = isDigit(u[start]!) ? TOKEN_NUMBER : TOKEN_WORD;
    if (i <= headEnd) headEnds.push(i);
  }
  if (cut) tokens.length = count;
  ids.length = count;
  hashes.length = count;
  kinds.length = count;
  const words: LookedUpWords =
    unknown === undefined
      ? { generation, ids, hashes, kinds }
      : { generation, ids, hashes, kinds, unknown, lower: s };
  return { tokens, count, words, lower: s, headEnds, units: u, runs };
}

const QUESTION_HASH = hashString('?');
const QUOTE_HASH = hashString('"');
// `cutTokens` tells the two marks apart by their hashes.
if (QUESTION_HASH === QUOTE_HASH) throw new Error('the tokeniser needs ? and " to hash apart');

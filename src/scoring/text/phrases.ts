import { CodeUnits } from './code-units.ts';
import {
  AI_TELLS,
  CALLS_TO_COMMENT,
  CONTRARIAN,
  ENGAGEMENT_BAIT,
  GENERIC_OPENERS,
  JARGON,
  PERSONAL_NEWS,
  VAGUE,
} from './lexicon.ts';
import { FNV_OFFSET, FNV_PRIME, finishHash, hashString } from './string-table.ts';
import {
  factsOfId,
  type LookedUpWords,
  lookUpWords,
  PHRASE_BIT,
  type PhraseEntry,
  PRONOUN_BITS,
  registerWord,
  TOKEN_MARK,
  TOKEN_NUMBER,
  TOKEN_WORD,
  type WordFacts,
  wordFacts,
  wordGeneration,
  wordIdOf,
  wordIdOfUnits,
  wordKey,
  wordTraits,
} from './word-facts.ts';

/**
 * Phrase matching over words, not regex alternations: the text is tokenised once and every
 * list is matched in the same pass through a first-word index, so cost grows with the
 * number of words only.
 */

export const PHRASE_LISTS = {
  bait: ENGAGEMENT_BAIT,
  aiTells: AI_TELLS,
  genericOpeners: GENERIC_OPENERS,
  contrarian: CONTRARIAN,
  callsToComment: CALLS_TO_COMMENT,
  personalNews: PERSONAL_NEWS,
  vague: VAGUE,
  jargon: JARGON,
} as const;
export type PhraseList = keyof typeof PHRASE_LISTS;
const LIST_NAMES = Object.keys(PHRASE_LISTS) as PhraseList[];

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
  const s = text.toLowerCase();
  const n = s.length;
  const u = LOWER_UNITS.of(s);
  // The lists are made about as long as the text's tokens usually are (a token and its space
  // take about six characters) and written by index, then cut to length: pushing into four
  // lists that start empty and grow several times cost twice as much (2026-11-27). A longer
  // list just grows on; the guess is capped, as V8 keeps a very long `new Array` as a dictionary.
  const guess = Math.min((n >> 2) + 8, 4096);
  const tokens = new Array<string>(guess);
  const ids = new Array<number>(guess);
  const hashes = new Array<number>(guess);
  const kinds = new Array<number>(guess);
  let count = 0;
  const headEnds: number[] = [];
  const generation = wordGeneration();
  let i = 0;
  while (i < n) {
    let c = u[i]!;
    if (!isWordCode(c)) {
      if (c === 63 || c === 34 || c === 0x201c || c === 0x201d) {
        const token = c === 63 ? '?' : '"';
        const hash = c === 63 ? QUESTION_HASH : QUOTE_HASH;
        tokens[count] = token;
        hashes[count] = hash;
        ids[count] = wordIdOf(token, hash);
        kinds[count++] = TOKEN_MARK;
        if (i < headEnd) headEnds.push(i + 1);
      }
      i++;
      continue;
    }
    const start = i;
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
      if (c === 0x2019) curly = true;
      h = Math.imul(h ^ (c === 0x2019 ? 39 : c), FNV_PRIME);
      h = Math.imul(h ^ u[i + 1]!, FNV_PRIME);
      i += 2;
    }
    const hash = finishHash(h);
    let token: string;
    let id: number;
    if (curly) {
      token = s.slice(start, i).replace(/’/g, "'");
      id = wordIdOf(token, hash);
    } else {
      id = wordIdOfUnits(u, start, i, hash);
      token = id === -1 ? s.slice(start, i) : wordKey(id);
    }
    tokens[count] = token;
    hashes[count] = hash;
    ids[count] = id;
    kinds[count++] = isDigit(u[start]!) ? TOKEN_NUMBER : TOKEN_WORD;
    if (i <= headEnd) headEnds.push(i);
  }
  tokens.length = count;
  ids.length = count;
  hashes.length = count;
  kinds.length = count;
  return { tokens, words: { generation, ids, hashes, kinds }, lower: s, headEnds };
}

const QUESTION_HASH = hashString('?');
const QUOTE_HASH = hashString('"');

interface Entry extends PhraseEntry {
  list: PhraseList;
}

const INDEX = new Map<string, Entry[]>();
for (const list of LIST_NAMES) {
  for (const phrase of PHRASE_LISTS[list]) {
    const [first, ...rest] = tokenize(phrase);
    if (!first) continue;
    const entries = INDEX.get(first) ?? [];
    entries.push({ list, phrase: phrase.trim(), rest });
    INDEX.set(first, entries);
  }
}

/** The most words any phrase of `list` has after its first (how far past its start a match reads). */
export function phraseWordsAfterFirst(list: PhraseList): number {
  let most = 0;
  for (const entries of INDEX.values())
    for (const e of entries) if (e.list === list && e.rest.length > most) most = e.rest.length;
  return most;
}

function longestMatch(
  entries: Entry[] | undefined,
  tokens: readonly string[],
  i: number,
  only: PhraseList | undefined,
  singleWordOnly: boolean,
  best: Entry | undefined,
): Entry | undefined {
  if (!entries) return best;
  for (const e of entries) {
    if (only && e.list !== only) continue;
    if (singleWordOnly && e.rest.length > 0) continue;
    let ok = true;
    for (let j = 0; j < e.rest.length && ok; j++) {
      const t = tokens[i + 1 + j];
      const want = e.rest[j]!;
      ok = t === want || (j === e.rest.length - 1 && t === `${want}s`);
    }
    if (ok && (!best || e.rest.length > best.rest.length)) best = e;
  }
  return best;
}

/** Pronoun classes by token: 1 first person, 2 first person plural, 3 second person. */
const PRONOUNS: [string[], 1 | 2 | 3][] = [
  [['i', "i'm", "i've", "i'd", "i'll", 'me', 'my', 'mine', 'myself'], 1],
  [['we', "we're", "we've", "we'll", "we'd", 'our', 'ours', 'us'], 2],
  [['you', 'your', 'yours', 'yourself', "you're", "you've", "you'll", "you'd"], 3],
];

// Everything a token is to the scan sits in its word record (word-facts.ts): the phrases it
// starts, the one-word phrases it is the plural of ("myths" -> "myth", so matching never
// slices), and its pronoun class.
for (const [first, entries] of INDEX) {
  registerWord(first).phrases = entries;
  const single = entries.filter((e) => e.rest.length === 0);
  if (single.length && first.length >= 3) registerWord(`${first}s`).plurals = single;
}
for (const [words, cls] of PRONOUNS) for (const w of words) registerWord(w).pronoun = cls;

/** The entry matching at token `i`, longest phrase first; a plural last word matches too. */
function matchAt(
  tokens: readonly string[],
  i: number,
  only: PhraseList | undefined,
  facts: WordFacts | undefined,
): Entry | undefined {
  if (!facts) return undefined;
  const best = longestMatch(facts.phrases as Entry[] | undefined, tokens, i, only, false, undefined);
  return facts.plurals ? longestMatch(facts.plurals as Entry[], tokens, i, only, true, best) : best;
}

export type PhraseCounts = Record<PhraseList, number>;

export interface PhraseScan {
  counts: PhraseCounts;
  /** Up to three distinct matched phrases per list, for signal details and warnings. */
  found: Record<PhraseList, string[]>;
  /** Word tokens (not `?` or `"`), those starting with a digit, and pronouns by class (1-3). */
  words: number;
  numbers: number;
  pronouns: [number, number, number, number];
}

/**
 * One pass over the tokens and their word ids and kinds (`lookUpWords(tokens)`): non-overlapping
 * matches per list, word, number and pronoun counts.
 */
export function scanPhrases(
  tokens: readonly string[],
  { ids, kinds }: LookedUpWords = lookUpWords(tokens),
): PhraseScan {
  const counts = {} as PhraseCounts;
  const found = {} as Record<PhraseList, string[]>;
  for (const l of LIST_NAMES) {
    counts[l] = 0;
    found[l] = [];
  }
  const traits = wordTraits();
  const pronouns: [number, number, number, number] = [0, 0, 0, 0];
  let words = 0;
  let numbers = 0;
  let next = 0;
  for (let i = 0; i < tokens.length; i++) {
    const kind = kinds[i]!;
    if (kind === TOKEN_MARK) continue;
    words++;
    if (kind === TOKEN_NUMBER) numbers++;
    const id = ids[i]!;
    if (id === -1) continue;
    const bits = traits[id]!;
    const pronoun = bits & PRONOUN_BITS;
    if (pronoun !== 0) pronouns[pronoun] = pronouns[pronoun]! + 1;
    // Inside a phrase already matched: counted above, but no new match starts here.
    if (i < next || (bits & PHRASE_BIT) === 0) continue;
    const e = matchAt(tokens, i, undefined, factsOfId(id));
    if (!e) continue;
    counts[e.list]++;
    if (found[e.list].length < 3 && !found[e.list].includes(e.phrase)) found[e.list].push(e.phrase);
    next = i + 1 + e.rest.length;
  }
  return { counts, found, words, numbers, pronouns };
}

/** True when a phrase of `list` occurs anywhere in `text` (short texts: hooks, first lines). */
export function hasPhrase(list: PhraseList, text: string, withinFirstWords = Number.POSITIVE_INFINITY) {
  return hasPhraseIn(list, tokenize(text), withinFirstWords);
}

/**
 * `hasPhrase` over tokens already cut, so one text checked against several lists is tokenised
 * once. `looked`, when given, is a lookup whose first ids are these tokens' (the post's own,
 * text-features.ts): a token's record is then read by id instead of hashing the token again.
 */
export function hasPhraseIn(
  list: PhraseList,
  tokens: string[],
  withinFirstWords = Number.POSITIVE_INFINITY,
  looked?: LookedUpWords,
) {
  const end = Math.min(tokens.length, withinFirstWords);
  const ids = looked !== undefined && looked.generation === wordGeneration() ? looked.ids : undefined;
  for (let i = 0; i < end; i++) {
    const facts = ids === undefined ? wordFacts(tokens[i]!) : ids[i] === -1 ? undefined : factsOfId(ids[i]!);
    if (matchAt(tokens, i, list, facts)) return true;
  }
  return false;
}

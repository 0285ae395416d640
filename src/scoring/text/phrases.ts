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
import { tokenize } from './tokenizer.ts';
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
  type TokenList,
  tokensOf,
  type WordFacts,
  wordFacts,
  wordGeneration,
  wordTraits,
} from './word-facts.ts';

// The tokeniser lived here; its readers still import it from here.
export { cutTokens, scanWords, tokenize, tokenizeWords } from './tokenizer.ts';

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

interface Entry extends PhraseEntry {
  list: PhraseList;
  /** The word ids of `rest`, and of its last word with an "s" (-1 without `rest`): matched by id. */
  restIds: number[];
  pluralId: number;
}

const INDEX = new Map<string, Entry[]>();
for (const list of LIST_NAMES) {
  for (const phrase of PHRASE_LISTS[list]) {
    const [first, ...rest] = tokenize(phrase);
    if (!first) continue;
    const entries = INDEX.get(first) ?? [];
    entries.push({ list, phrase: phrase.trim(), rest, restIds: [], pluralId: -1 });
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

/**
 * `longestMatch` over the tokens' word ids (a current lookup): every phrase's later words, and
 * a last word with an "s", are registered words (below), so a token equals one exactly when its
 * id does, and the words no table knows need no string.
 */
function longestMatchByIds(
  entries: Entry[] | undefined,
  ids: readonly number[],
  length: number,
  i: number,
  only: PhraseList | undefined,
  singleWordOnly: boolean,
  best: Entry | undefined,
): Entry | undefined {
  if (!entries) return best;
  for (const e of entries) {
    if (only && e.list !== only) continue;
    const rest = e.restIds;
    if (singleWordOnly && rest.length > 0) continue;
    // `ids` may run on past the tokens matched (a lookup of the whole text for its opening's tokens).
    let ok = i + rest.length < length;
    for (let j = 0; j < rest.length && ok; j++) {
      const t = ids[i + 1 + j];
      ok = t === rest[j] || (j === rest.length - 1 && t === e.pluralId);
    }
    if (ok && (!best || rest.length > best.restIds.length)) best = e;
  }
  return best;
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
// A phrase's later words, and its last word with an "s", are registered (with no traits) so
// matching compares ids; a registered word reads as an unknown one to every other measure.
for (const entries of INDEX.values())
  for (const e of entries) {
    e.restIds = e.rest.map((w) => registerWord(w).id);
    if (e.rest.length > 0) e.pluralId = registerWord(`${e.rest.at(-1)}s`).id;
  }
/** Lookups made before the registrations above cannot be matched by id. */
const MATCHABLE_GENERATION = wordGeneration();

/** The entry matching at token `i` of the first `length` by word ids, longest phrase first (`matchAt`). */
function matchAtIds(
  ids: readonly number[],
  length: number,
  i: number,
  only: PhraseList | undefined,
  facts: WordFacts | undefined,
): Entry | undefined {
  if (!facts) return undefined;
  const best = longestMatchByIds(
    facts.phrases as Entry[] | undefined,
    ids,
    length,
    i,
    only,
    false,
    undefined,
  );
  return facts.plurals ? longestMatchByIds(facts.plurals as Entry[], ids, length, i, only, true, best) : best;
}

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
export function scanPhrases(tokens: TokenList, looked?: LookedUpWords): PhraseScan {
  // A lookup made before this module registered its phrases' words lacks their ids: the tokens'
  // strings (cut when `tokens` is a function) are looked up again.
  const { ids, kinds } =
    looked !== undefined && looked.generation >= MATCHABLE_GENERATION
      ? looked
      : lookUpWords(tokensOf(tokens));
  const count = ids.length;
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
  for (let i = 0; i < count; i++) {
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
    const e = matchAtIds(ids, count, i, undefined, factsOfId(id));
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
    if (ids === undefined) {
      if (matchAt(tokens, i, list, wordFacts(tokens[i]!))) return true;
    } else if (ids[i] !== -1 && matchAtIds(ids, tokens.length, i, list, factsOfId(ids[i]!))) return true;
  }
  return false;
}

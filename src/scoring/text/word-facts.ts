/**
 * One table of every word the scorer knows something about, so a post's tokens are looked up
 * once (phrases.ts `tokenize`, then `lookUpWords`) instead of once per measure: the phrase
 * scan, the pronoun counts, the word-order classes, VADER's negators and the learned model's
 * vocabulary each read their fields of the same record. Hashing and comparing fresh token
 * strings was most of the scorer's time when each measure kept its own map.
 *
 * Each module registers its words when it loads (the learned vocabulary when a model's word
 * table is first built), so the table is bounded by the lexicons and the models in use, never
 * by the text scored. A word registered after a post was looked up raises `generation`, and
 * readers of an older lookup look the post up again (`currentWords`).
 */

import { hashString, StringIds } from './string-table.ts';

/** A phrase of one of phrases.ts's lists, indexed under its first word. */
export interface PhraseEntry {
  list: string;
  phrase: string;
  /** Its words after the first. */
  rest: string[];
}

export interface WordFacts {
  /** Dense index, for tables kept outside this record (words.ts). */
  readonly id: number;
  /** Phrase entries starting with this word, and one-word phrases it is the plural of (phrases.ts). */
  phrases: PhraseEntry[] | undefined;
  plurals: PhraseEntry[] | undefined;
  /** 1 first person, 2 first person plural, 3 second person, 0 none. */
  pronoun: 0 | 1 | 2 | 3;
  /** Word-order class (learned/word-order.ts), -1 when the word is not a class word. */
  orderClass: number;
  /** One of VADER's negators (learned/sentiment.ts). */
  negator: boolean;
  /** The pass that last counted this word as seen in a post (distinct-word counts). */
  seen: number;
}

const WORDS = new StringIds();
const FACTS: WordFacts[] = [];
let generation = 0;

/** The record of `word`, created when absent: only for registering lexicons, never for post text. */
export function registerWord(word: string): WordFacts {
  const id = WORDS.add(word);
  if (id === FACTS.length) {
    FACTS.push({
      id,
      phrases: undefined,
      plurals: undefined,
      pronoun: 0,
      orderClass: -1,
      negator: false,
      seen: 0,
    });
    generation++;
  }
  return FACTS[id]!;
}

export function wordFacts(token: string): WordFacts | undefined {
  const id = WORDS.idOf(token);
  return id === -1 ? undefined : FACTS[id];
}

/** The table's own lookups, for a scan that finds words without cutting them (phrases.ts `tokenizeWords`). */
export const wordIdOf = (word: string, hash: number): number => WORDS.idOf(word, hash);
export const wordIdOfRange = (text: string, start: number, end: number, hash: number): number =>
  WORDS.idOfRange(text, start, end, hash);
export const wordKey = (id: number): string => WORDS.keys[id]!;
export const factsOfId = (id: number): WordFacts => FACTS[id]!;
export const wordGeneration = (): number => generation;

/** Number of registered words: ids are below it. */
export const registeredWords = (): number => FACTS.length;

/** A post's tokens with their records (undefined for a word nobody registered) and hashes. */
export interface LookedUpWords {
  readonly generation: number;
  readonly facts: readonly (WordFacts | undefined)[];
  /** `hashString` of each token, for tables that count them (learned/word-order.ts). */
  readonly hashes: readonly number[];
}

export function lookUpWords(tokens: readonly string[]): LookedUpWords {
  const facts = new Array<WordFacts | undefined>(tokens.length);
  const hashes = new Array<number>(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const hash = hashString(t);
    hashes[i] = hash;
    const id = WORDS.idOf(t, hash);
    facts[i] = id === -1 ? undefined : FACTS[id];
  }
  return { generation, facts, hashes };
}

/** `looked` when it is current (no word registered since), else a fresh lookup of `tokens`. */
export const currentLookUp = (tokens: readonly string[], looked: LookedUpWords | undefined): LookedUpWords =>
  looked !== undefined && looked.generation === generation ? looked : lookUpWords(tokens);

let pass = 0;

/** A fresh stamp for `WordFacts.seen`: a word is new to this pass when its stamp differs. */
export function nextSeenPass(): number {
  pass++;
  if (pass > 0x3fffffff) {
    for (const facts of FACTS) facts.seen = 0;
    pass = 1;
  }
  return pass;
}

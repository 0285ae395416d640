/**
 * One table of every word the scorer knows something about, so a post's tokens are looked up
 * once (phrases.ts `tokenize`, then `lookUpWords`) instead of once per measure: the phrase
 * scan, the pronoun counts, the word-order classes, VADER's negators and the learned model's
 * vocabulary each read what they need of the same word (by its id). Hashing and comparing fresh token
 * strings was most of the scorer's time when each measure kept its own map.
 *
 * Each module registers its words when it loads (the learned vocabulary when a model's word
 * table is first built), so the table is bounded by the lexicons and the models in use, never
 * by the text scored. A word registered after a post was looked up raises `generation`, and
 * readers of an older lookup look the post up again (`currentLookUp`).
 */

import { hashString, StringIds } from './string-table.ts';

/** A phrase of one of phrases.ts's lists, indexed under its first word. */
export interface PhraseEntry {
  list: string;
  phrase: string;
  /** Its words after the first. */
  rest: string[];
}

/**
 * What the scans read of every token sits in typed arrays by word id, not in the records: a
 * post's tokens are hundreds of records spread over the heap, and loading them was the word
 * passes' largest cost (callgrind and CPU profiles, 2026-11-27). One 32-bit value per word:
 * the pronoun class in bits 0-1, a negator in bit 2, a phrase start or plural in bit 3, and
 * the word-order class plus one in bits 8-15 (0: not a class word).
 */
export const PRONOUN_BITS = 3;
export const NEGATOR_BIT = 4;
export const PHRASE_BIT = 8;
const ORDER_SHIFT = 8;
/** A word's order class from its traits, -1 when it is not a class word. */
export const orderClassOf = (traits: number): number => (traits >>> ORDER_SHIFT) - 1;

let TRAITS = new Int32Array(1024);
/** The pass that last counted each word as seen in a post (distinct-word counts). */
let SEEN = new Int32Array(1024);

/** The traits of every word by id; read it once per pass (registering a word can replace it). */
export const wordTraits = (): Int32Array => TRAITS;
/** Each word's seen stamp by id (`nextSeenPass`); read it once per pass, like `wordTraits`. */
export const wordSeen = (): Int32Array => SEEN;

const setBits = (id: number, mask: number, value: number) => {
  TRAITS[id] = (TRAITS[id]! & ~mask) | value;
};

/** A registered word: its id, the phrases it starts, and setters of its traits. */
export class WordFacts {
  /** Phrase entries starting with this word, and one-word phrases it is the plural of (phrases.ts). */
  #phrases: PhraseEntry[] | undefined;
  #plurals: PhraseEntry[] | undefined;

  /** Dense index, for tables kept outside this record (words.ts). */
  readonly id: number;

  constructor(id: number) {
    this.id = id;
  }

  get phrases(): PhraseEntry[] | undefined {
    return this.#phrases;
  }
  set phrases(entries: PhraseEntry[] | undefined) {
    this.#phrases = entries;
    setBits(this.id, PHRASE_BIT, this.#phrases || this.#plurals ? PHRASE_BIT : 0);
  }
  get plurals(): PhraseEntry[] | undefined {
    return this.#plurals;
  }
  set plurals(entries: PhraseEntry[] | undefined) {
    this.#plurals = entries;
    setBits(this.id, PHRASE_BIT, this.#phrases || this.#plurals ? PHRASE_BIT : 0);
  }
  /** 1 first person, 2 first person plural, 3 second person, 0 none. */
  get pronoun(): 0 | 1 | 2 | 3 {
    return (TRAITS[this.id]! & PRONOUN_BITS) as 0 | 1 | 2 | 3;
  }
  set pronoun(cls: 0 | 1 | 2 | 3) {
    setBits(this.id, PRONOUN_BITS, cls);
  }
  /** Word-order class (learned/word-order.ts), -1 when the word is not a class word. */
  get orderClass(): number {
    return orderClassOf(TRAITS[this.id]!);
  }
  set orderClass(cls: number) {
    setBits(this.id, 0xff << ORDER_SHIFT, (cls + 1) << ORDER_SHIFT);
  }
  /** One of VADER's negators (learned/sentiment.ts). */
  get negator(): boolean {
    return (TRAITS[this.id]! & NEGATOR_BIT) !== 0;
  }
  set negator(yes: boolean) {
    setBits(this.id, NEGATOR_BIT, yes ? NEGATOR_BIT : 0);
  }
}

const WORDS = new StringIds();
const FACTS: WordFacts[] = [];
let generation = 0;

const grown = (a: Int32Array, size: number) => {
  const b = new Int32Array(size);
  b.set(a);
  return b;
};

/** The record of `word`, created when absent: only for registering lexicons, never for post text. */
export function registerWord(word: string): WordFacts {
  const id = WORDS.add(word);
  if (id === FACTS.length) {
    if (id === TRAITS.length) {
      TRAITS = grown(TRAITS, id * 2);
      SEEN = grown(SEEN, id * 2);
    }
    FACTS.push(new WordFacts(id));
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
export const wordIdOfUnits = (units: Uint16Array, start: number, end: number, hash: number): number =>
  WORDS.idOfUnits(units, start, end, hash);
export const wordIdOfStraightUnits = (units: Uint16Array, start: number, end: number, hash: number): number =>
  WORDS.idOfStraightUnits(units, start, end, hash);
export const wordKey = (id: number): string => WORDS.keys[id]!;
export const factsOfId = (id: number): WordFacts => FACTS[id]!;
export const wordGeneration = (): number => generation;

/** Number of registered words: ids are below it. */
export const registeredWords = (): number => FACTS.length;

/**
 * What kind of token each is (`LookedUpWords.kinds`), so the passes over a post's tokens tell
 * words, numbers and marks apart without loading the token strings: reading each token's
 * string (its first character, or comparing it with "?") was a quarter to a half of each
 * pass's time in a CPU profile (2026-11-27), the strings being spread over the heap.
 */
export const TOKEN_WORD = 0;
/** A word starting with a digit ("3.5", "10x"). */
export const TOKEN_NUMBER = 1;
/** `?` or `"`, tokens of their own (phrases.ts): not words. */
export const TOKEN_MARK = 2;

/** The kind of a token by its string (the tokeniser knows it without reading the string). */
export function tokenKind(token: string): number {
  if (token === '?' || token === '"') return TOKEN_MARK;
  const c = token.charCodeAt(0);
  return c >= 48 && c <= 57 ? TOKEN_NUMBER : TOKEN_WORD;
}

/** A post's tokens as word ids (-1 for a word nobody registered), hashes and kinds. */
export interface LookedUpWords {
  readonly generation: number;
  readonly ids: readonly number[];
  /** `hashString` of each token, for tables that count them (learned/word-order.ts). */
  readonly hashes: readonly number[];
  /** `tokenKind` of each token. */
  readonly kinds: readonly number[];
  /**
   * When the tokeniser did not cut the words nobody registered (phrases.ts `scanWords`): where
   * each of them stands in `lower`, start and end, in token order. A reader compares those
   * ranges instead of strings.
   */
  readonly unknown?: readonly number[];
  readonly lower?: string;
}

/**
 * A post's tokens, or a function that gives them: readers with a current lookup that has the
 * unknown words' ranges never need the strings, which text-features.ts cuts only when asked.
 */
export type TokenList = readonly string[] | (() => readonly string[]);
export const tokensOf = (list: TokenList): readonly string[] => (typeof list === 'function' ? list() : list);

export function lookUpWords(tokens: readonly string[]): LookedUpWords {
  const ids = new Array<number>(tokens.length);
  const hashes = new Array<number>(tokens.length);
  const kinds = new Array<number>(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const hash = hashString(t);
    hashes[i] = hash;
    ids[i] = WORDS.idOf(t, hash);
    kinds[i] = tokenKind(t);
  }
  return { generation, ids, hashes, kinds };
}

/** `looked` when it is current (no word registered since), else a fresh lookup of `tokens`. */
export const currentLookUp = (tokens: TokenList, looked: LookedUpWords | undefined): LookedUpWords =>
  looked !== undefined && looked.generation === generation ? looked : lookUpWords(tokensOf(tokens));

let pass = 0;

/** A fresh stamp for `wordSeen()`: a word is new to this pass when its stamp differs. */
export function nextSeenPass(): number {
  pass++;
  if (pass > 0x3fffffff) {
    SEEN.fill(0);
    pass = 1;
  }
  return pass;
}

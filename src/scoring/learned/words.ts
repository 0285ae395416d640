import {
  currentLookUp,
  type LookedUpWords,
  NEGATOR_BIT,
  registeredWords,
  registerWord,
  TOKEN_MARK,
  type TokenList,
  wordTraits,
} from '../text/word-facts.ts';
import { COMPOUND_ALPHA, NEGATION_SCALAR, NEGATORS, type Sentiment, vaderLexicon } from './sentiment.ts';

/**
 * The learned model's per-word measures in one pass over the rules' tokens: word choice (the
 * sum of the learned effects of the distinct words and adjacent word pairs a post uses) and
 * VADER sentiment (sentiment.ts). One table per vocabulary maps a token to an id with, by id,
 * its valence, its vocabulary slot and the pairs it starts, so each token costs one lookup
 * instead of one per measure (the lookups were the scorer's largest remaining cost).
 */

/** Learned within-author effect per lower-cased word or `first_second` pair (the artifact's `words`). */
export type WordWeights = ReadonlyMap<string, number>;

/**
 * A vocabulary's lookup tables, indexed by word id (word-facts.ts): building one registers the
 * vocabulary's words, VADER's lexicon and negators, so a post's single lookup finds them.
 */
interface Table {
  /**
   * Two numbers per word id, side by side so a token's facts are one cache line, not three
   * arrays' (the table spans every registered word; these loads were most of the pass's time
   * in a CPU profile, 2026-11-27): at `2 * id` the word's VADER valence (NaN when none), at
   * `2 * id + 1` its vocabulary slot plus one, times two (0: it only starts pairs or only has a
   * valence), plus one when it starts pairs (`STARTS_PAIRS`).
   */
  facts: Float64Array;
  /** Pairs a word starts ("thrilled" of "thrilled_to"), by word id: second word's id to slot. */
  pairsOf: (Map<number, number> | undefined)[];
  /** Number of word ids the table covers. */
  size: number;
  names: string[];
  /** Whether an entry holds a word a writer chose (not only function words or link pieces). */
  chosen: Uint8Array;
  weight: Float64Array;
  /** The pass that last counted a slot, so no Set is built per post. */
  seen: Uint32Array;
  pass: number;
}
/**
 * Words a writer does not choose so much as use: function words, and the pieces links and
 * handles break into. The word-choice signal never names an entry made only of these.
 */
const NOT_CHOSEN = new Set(
  (
    'a an the and or but nor so yet if then than as at by for from in into of off on onto out over to up with ' +
    'about after before between through during without within under again once here there when where why how ' +
    'across around against among along behind below above beyond beside toward towards upon via per despite ' +
    'near inside outside throughout unlike like ' +
    'what which who whom whose this that these those i me my mine we us our ours you your yours he him his she ' +
    'her hers it its they them their theirs is am are was were be been being have has had having do does did ' +
    'doing will would shall should can could may might must not no all any both each few more most other some ' +
    "such only own same too very just also now i'm i've i'd i'll it's that's don't didn't can't won't isn't " +
    "you're we're they're let's there's what's " +
    'myself yourself yourselves ourselves themselves himself herself itself while whilst although though ' +
    'because since until unless whether even ever never always still really actually maybe perhaps yes ' +
    'ok okay oh hey well much many lot lots thing things something anything everything nothing ' +
    'https http www com lnkd bit ly co org net io html php amp utm'
  ).split(' '),
);
const chosen = (entry: string) => entry.split('_').some((w) => !NOT_CHOSEN.has(w) && /^\p{L}{2,}/u.test(w));

const tables = new WeakMap<WordWeights, Table>();
/** The facts at `2 * id + 1`: bit 0 says the word starts pairs, the rest is its slot plus one. */
const STARTS_PAIRS = 1;
const slotFacts = (slot: number) => (slot + 1) * 2;

function tableOf(words: WordWeights): Table {
  const cached = tables.get(words);
  if (cached) return cached;
  const entries = [...words];
  for (const n of NEGATORS) registerWord(n).negator = true;
  const lexicon = [...vaderLexicon()].map(([w, v]) => [registerWord(w).id, v] as const);
  // Tokens never hold "_", so an entry with one is a pair of adjacent tokens.
  const parts = entries.map(([w]) => {
    const cut = w.indexOf('_');
    return cut === -1
      ? { word: registerWord(w).id, second: -1 }
      : { word: registerWord(w.slice(0, cut)).id, second: registerWord(w.slice(cut + 1)).id };
  });
  const size = registeredWords();
  const facts = new Float64Array(2 * size);
  for (let id = 0; id < size; id++) facts[2 * id] = Number.NaN;
  for (const [id, v] of lexicon) facts[2 * id] = v;
  const pairsOf = new Array<Map<number, number> | undefined>(size);
  parts.forEach(({ word, second }, k) => {
    if (second === -1) {
      facts[2 * word + 1] = slotFacts(k) | (facts[2 * word + 1]! & STARTS_PAIRS);
      return;
    }
    const next = pairsOf[word] ?? new Map<number, number>();
    next.set(second, k);
    pairsOf[word] = next;
    facts[2 * word + 1] = facts[2 * word + 1]! | STARTS_PAIRS;
  });
  const table: Table = {
    facts,
    pairsOf,
    size,
    names: entries.map(([w]) => w),
    chosen: Uint8Array.from(entries, ([w]) => (chosen(w) ? 1 : 0)),
    weight: Float64Array.from(entries, ([, b]) => b),
    seen: new Uint32Array(entries.length),
    pass: 0,
  };
  tables.set(words, table);
  return table;
}

/** A vocabulary entry as a reader sees it ("thrilled_to" reads "thrilled to"). */
export const wordLabel = (entry: string) => (entry.includes('_') ? entry.replace('_', ' ') : entry);

/**
 * The words among `known` that a writer chose (no function words: `NOT_CHOSEN`) whose effect
 * has the given sign and is at least `min` (in word-weight units), largest first, at most
 * `limit`, with their weights: the word-choice signal names only these.
 */
export function materialWords(
  words: WordWeights,
  known: readonly number[],
  positive: boolean,
  limit: number,
  min: number,
): { word: string; weight: number }[] {
  const { weight, names, chosen } = tableOf(words);
  const out: { word: string; weight: number }[] = [];
  for (const k of known) {
    const b = weight[k]!;
    if ((positive ? b < min : b > -min) || chosen[k] === 0) continue;
    out.push({ word: wordLabel(names[k]!), weight: b });
  }
  // Stable: ties keep the order the post used them in.
  return out.sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight)).slice(0, limit);
}

/**
 * Word choice and sentiment of lower-cased tokens (phrases.ts `tokenize`), read from their word
 * ids (`looked`, the lookup text-features.ts kept; looked up here when absent or older than
 * this vocabulary). `known`, when given, collects the vocabulary slots the post uses
 * (`strongestWords` names them).
 */
export function wordPass(
  tokens: TokenList,
  words: WordWeights,
  known?: number[],
  looked?: LookedUpWords,
): { choice: number; sentiment: Sentiment } {
  const v = tableOf(words);
  const { ids, kinds } = currentLookUp(tokens, looked);
  const traits = wordTraits();
  v.pass = (v.pass + 1) >>> 0;
  if (v.pass === 0) {
    v.seen.fill(0);
    v.pass = 1;
  }
  const pass = v.pass;
  const { facts, size } = v;
  let choice = 0;
  let sum = 0;
  let positive = 0;
  let negative = 0;
  let counted = 0;
  let after: Map<number, number> | undefined;
  for (let n = 0; n < ids.length; n++) {
    if (kinds[n] !== TOKEN_MARK) counted++;
    const id = ids[n]!;
    // Words registered after this vocabulary's table was built are not in it.
    const i = id >= size ? -1 : id;
    if (after !== undefined && i !== -1) {
      const p = after.get(i);
      if (p !== undefined && v.seen[p] !== pass) {
        v.seen[p] = pass;
        choice += v.weight[p]!;
        known?.push(p);
      }
    }
    if (i === -1) {
      after = undefined;
      continue;
    }
    const word = facts[2 * i + 1]!;
    after = (word & STARTS_PAIRS) === 0 ? undefined : v.pairsOf[i];
    let valence = facts[2 * i]!;
    if (!Number.isNaN(valence)) {
      // VADER's negation: a negator among the three preceding words scales the valence.
      for (let k = Math.max(0, n - 3); k < n; k++) {
        const before = ids[k]!;
        if (before !== -1 && (traits[before]! & NEGATOR_BIT) !== 0) {
          valence *= NEGATION_SCALAR;
          break;
        }
      }
      sum += valence;
      if (valence > 0) positive++;
      else if (valence < 0) negative++;
    }
    const k = (word >> 1) - 1;
    if (k === -1 || v.seen[k] === pass) continue;
    v.seen[k] = pass;
    choice += v.weight[k]!;
    known?.push(k);
  }
  return {
    choice,
    sentiment: {
      compound: sum / Math.sqrt(sum * sum + COMPOUND_ALPHA),
      positive: counted ? positive / counted : 0,
      negative: counted ? negative / counted : 0,
    },
  };
}

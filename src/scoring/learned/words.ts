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

interface Table {
  id: Map<string, number>;
  /** VADER valence, NaN when the word has none. */
  valence: Float64Array;
  /** Vocabulary slot of the word itself, -1 when it only starts pairs or only has a valence. */
  slotOf: Int32Array;
  /** Pairs this word starts ("thrilled" of "thrilled_to"): second word to slot. */
  pairsOf: (Map<string, number> | undefined)[];
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
    'what which who whom whose this that these those i me my mine we us our ours you your yours he him his she ' +
    'her hers it its they them their theirs is am are was were be been being have has had having do does did ' +
    'doing will would shall should can could may might must not no all any both each few more most other some ' +
    "such only own same too very just also now i'm i've i'd i'll it's that's don't didn't can't won't isn't " +
    "you're we're they're let's there's what's " +
    'https http www com lnkd bit ly co org net io html php amp utm'
  ).split(' '),
);
const chosen = (entry: string) => entry.split('_').some((w) => !NOT_CHOSEN.has(w) && /^\p{L}{2,}/u.test(w));

const tables = new WeakMap<WordWeights, Table>();

function tableOf(words: WordWeights): Table {
  const cached = tables.get(words);
  if (cached) return cached;
  const entries = [...words];
  const id = new Map<string, number>();
  const valence: number[] = [];
  const slot: number[] = [];
  const pairsOf: (Map<string, number> | undefined)[] = [];
  const idOf = (w: string) => {
    let i = id.get(w);
    if (i === undefined) {
      i = slot.length;
      id.set(w, i);
      slot.push(-1);
      valence.push(Number.NaN);
      pairsOf.push(undefined);
    }
    return i;
  };
  for (const [w, v] of vaderLexicon()) valence[idOf(w)] = v;
  entries.forEach(([w], k) => {
    // Tokens never hold "_", so an entry with one is a pair of adjacent tokens.
    const cut = w.indexOf('_');
    if (cut === -1) {
      slot[idOf(w)] = k;
      return;
    }
    const first = idOf(w.slice(0, cut));
    const next = pairsOf[first] ?? new Map<string, number>();
    next.set(w.slice(cut + 1), k);
    pairsOf[first] = next;
  });
  const table: Table = {
    id,
    valence: Float64Array.from(valence),
    slotOf: Int32Array.from(slot),
    pairsOf,
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
export const wordLabel = (entry: string) => entry.replace('_', ' ');

/**
 * The words among `known` (vocabulary slots, from `wordPass`) whose effect has the given sign,
 * largest first, at most `limit`, as a reader sees them: the word-choice signal's examples.
 */
export function strongestWords(
  words: WordWeights,
  known: readonly number[],
  positive: boolean,
  limit: number,
): string[] {
  const { weight, names, chosen } = tableOf(words);
  const top: number[] = [];
  for (const k of known) {
    const b = weight[k]!;
    if (positive ? b <= 0 : b >= 0) continue;
    if (chosen[k] === 0) continue;
    // Insertion into a short list: ties keep the order the post used them in.
    let at = top.length;
    while (at > 0 && Math.abs(weight[top[at - 1]!]!) < Math.abs(b)) at--;
    if (at < limit) {
      top.splice(at, 0, k);
      if (top.length > limit) top.pop();
    }
  }
  return top.map((k) => wordLabel(names[k]!));
}

/**
 * Word choice and sentiment of lower-cased tokens (phrases.ts `tokenize`). `known`, when given,
 * collects the vocabulary slots the post uses (`strongestWords` names them).
 */
export function wordPass(
  tokens: readonly string[],
  words: WordWeights,
  known?: number[],
): { choice: number; sentiment: Sentiment } {
  const v = tableOf(words);
  v.pass = (v.pass + 1) >>> 0;
  if (v.pass === 0) {
    v.seen.fill(0);
    v.pass = 1;
  }
  const pass = v.pass;
  let choice = 0;
  let sum = 0;
  let positive = 0;
  let negative = 0;
  let counted = 0;
  let after: Map<string, number> | undefined;
  for (let n = 0; n < tokens.length; n++) {
    const t = tokens[n]!;
    if (after !== undefined) {
      const p = after.get(t);
      if (p !== undefined && v.seen[p] !== pass) {
        v.seen[p] = pass;
        choice += v.weight[p]!;
        known?.push(p);
      }
    }
    if (t !== '?' && t !== '"') counted++;
    const i = v.id.get(t);
    if (i === undefined) {
      after = undefined;
      continue;
    }
    after = v.pairsOf[i];
    let valence = v.valence[i]!;
    if (!Number.isNaN(valence)) {
      // VADER's negation: a negator among the three preceding words scales the valence.
      for (let k = Math.max(0, n - 3); k < n; k++) {
        if (NEGATORS.has(tokens[k]!)) {
          valence *= NEGATION_SCALAR;
          break;
        }
      }
      sum += valence;
      if (valence > 0) positive++;
      else if (valence < 0) negative++;
    }
    const k = v.slotOf[i]!;
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

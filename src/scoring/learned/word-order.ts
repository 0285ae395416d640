import { DistinctCounter } from '../text/string-table.ts';
import {
  currentLookUp,
  type LookedUpWords,
  nextSeenPass,
  orderClassOf,
  registerWord,
  TOKEN_MARK,
  TOKEN_NUMBER,
  type TokenList,
  tokensOf,
  wordSeen,
  wordTraits,
} from '../text/word-facts.ts';
import table from './word-order.json' with { type: 'json' };

/**
 * A learned word-order plausibility model: how much more often each pair of adjacent word
 * classes occurs in real posts than in the same posts' words shuffled within each line. The
 * classes are the most common words of the training posts (mostly function words: "the",
 * "of", "i", "to"), numbers, and every other word. Real sentences put "the" before a noun and
 * "i" before a verb; word salad does not. Trained by scripts/train-scoring.ts into
 * word-order.json (a log-ratio per class pair, quantised to one signed byte).
 */

export interface WordOrderTable {
  /** The class words, most common first; a word not listed is class `classes.length` (other). */
  classes: string[];
  /** Log-ratio per class pair (row = earlier word), times `step`, as signed bytes in base64. */
  table: string;
  step: number;
}

const OTHER = (table as WordOrderTable).classes.length;
const NUMBER = OTHER + 1;
const SIZE = OTHER + 2;
const CLASS = new Map((table as WordOrderTable).classes.map((w, i) => [w, i]));
const LOG_RATIO = Int8Array.from(Buffer.from((table as WordOrderTable).table, 'base64'), (b) =>
  b > 127 ? b - 256 : b,
);
const STEP = (table as WordOrderTable).step;
for (const [w, i] of CLASS) registerWord(w).orderClass = i;

export const wordOrderClassCount = SIZE;

/** A token's class: its own for a common word, one for numbers, one for every other word. */
export function wordClass(
  token: string,
  classes: ReadonlyMap<string, number> = CLASS,
  other = OTHER,
): number {
  const c = classes.get(token);
  if (c !== undefined) return c;
  const first = token.charCodeAt(0);
  return first >= 48 && first <= 57 ? other + 1 : other;
}

/** Word tokens only: `?` and `"` are tokens of their own in phrases.ts and carry no order here. */
export const orderTokens = (tokens: readonly string[]) => tokens.filter((t) => t !== '?' && t !== '"');

export interface WordOrder {
  /** Mean log-ratio (real over shuffled) of the post's adjacent word pairs; real posts ~0.26. */
  plausibility: number;
  /** Adjacent pairs measured. */
  pairs: number;
  /** Share of words that are class words: English text has many; other languages few. */
  classShare: number;
  /** Words, and distinct words (lexical diversity, rules-quality.ts). */
  words: number;
  distinct: number;
}

/** Distinct words nobody registered, counted per post. */
const unregistered = new DistinctCounter();

/**
 * Word-order plausibility of a post's tokens (phrases.ts `tokenize`), in one pass over them and
 * their word ids (text-features.ts keeps the lookup): a class word's class and whether it
 * was seen are read by id (word-facts.ts); only words nobody registered are counted in a table.
 */
export function wordOrder(tokens: TokenList, looked?: LookedUpWords): WordOrder {
  const { ids, hashes, kinds, unknown, lower } = currentLookUp(tokens, looked);
  // Words nobody registered are compared as ranges of the text when the lookup has them
  // (phrases.ts `scanWords` cut no string for them), else as strings.
  const strings = unknown === undefined ? tokensOf(tokens) : undefined;
  let u = 0;
  const pass = nextSeenPass();
  const traits = wordTraits();
  const seen = wordSeen();
  unregistered.begin(ids.length);
  let previous = -1;
  let sum = 0;
  let pairs = 0;
  let common = 0;
  let words = 0;
  let distinct = 0;
  for (let i = 0; i < ids.length; i++) {
    const kind = kinds[i]!;
    if (kind === TOKEN_MARK) continue;
    const id = ids[i]!;
    let c: number;
    if (id !== -1) {
      if (seen[id] !== pass) {
        seen[id] = pass;
        distinct++;
      }
      c = orderClassOf(traits[id]!);
    } else {
      if (strings !== undefined) unregistered.add(strings[i]!, hashes[i]!);
      else {
        unregistered.addRange(lower!, unknown![u]!, unknown![u + 1]!, hashes[i]!);
        u += 2;
      }
      c = -1;
    }
    if (c === -1) c = kind === TOKEN_NUMBER ? NUMBER : OTHER;
    words++;
    if (c < OTHER) common++;
    if (previous >= 0) {
      sum += LOG_RATIO[previous * SIZE + c]!;
      pairs++;
    }
    previous = c;
  }
  return {
    plausibility: pairs === 0 ? 0 : (sum * STEP) / pairs,
    pairs,
    classShare: words === 0 ? 0 : common / words,
    words,
    distinct: distinct + unregistered.count,
  };
}

/** For training: the log-ratio table of counts from real and shuffled token streams. */
export function fitWordOrder(
  real: Iterable<readonly string[]>,
  shuffled: Iterable<readonly string[]>,
  classes: string[],
  step: number,
): WordOrderTable {
  const index = new Map(classes.map((w, i) => [w, i]));
  const size = classes.length + 2;
  const count = (streams: Iterable<readonly string[]>) => {
    const m = new Float64Array(size * size).fill(0.5);
    for (const tokens of streams) {
      const cs = orderTokens(tokens).map((t) => wordClass(t, index, classes.length));
      for (let i = 1; i < cs.length; i++) m[cs[i - 1]! * size + cs[i]!]! += 1;
    }
    return m;
  };
  const r = count(real);
  const s = count(shuffled);
  const rs = r.reduce((a, b) => a + b, 0);
  const ss = s.reduce((a, b) => a + b, 0);
  const bytes = Buffer.alloc(size * size);
  for (let i = 0; i < size * size; i++) {
    const q = Math.max(-127, Math.min(127, Math.round((Math.log(r[i]! / rs) - Math.log(s[i]! / ss)) / step)));
    bytes[i] = q < 0 ? q + 256 : q;
  }
  return { classes, table: bytes.toString('base64'), step };
}

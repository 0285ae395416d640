import { fitWordOrder, orderTokens, type WordOrderTable } from '../../src/scoring/learned/word-order.ts';
import { tokenize } from '../../src/scoring/text/phrases.ts';
import type { DataPost } from './datasets.ts';
import { shuffleWordsInLines } from './degenerate.ts';

/** The most common words (by posts using them) get a word-order class of their own. */
const CLASSES = 150;
/** Log-ratios are stored in steps of 1/16 (a signed byte covers -7.9 to +7.9). */
const STEP = 0.0625;
/** Each training post is shuffled this many times (seeded), so the shuffled counts are smooth. */
const SHUFFLES = 3;

/** Fits the word-order table (src/scoring/learned/word-order.ts) on training posts only. */
export function trainWordOrder(posts: readonly DataPost[]): WordOrderTable {
  const postsUsing = new Map<string, number>();
  for (const p of posts)
    for (const w of new Set(orderTokens(tokenize(p.text)))) postsUsing.set(w, (postsUsing.get(w) ?? 0) + 1);
  const classes = [...postsUsing]
    .filter(([w]) => !/^\d/.test(w))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, CLASSES)
    .map(([w]) => w);
  const real = posts.map((p) => tokenize(p.text));
  const shuffled = posts.flatMap((p) =>
    Array.from({ length: SHUFFLES }, (_, s) => tokenize(shuffleWordsInLines(p.text, `train-${s}`))),
  );
  return fitWordOrder(real, shuffled, classes, STEP);
}

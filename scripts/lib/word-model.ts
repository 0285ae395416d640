import { solveSpd } from './linear.ts';

/**
 * The word-choice model: ridge regression of the within-author target on the presence of
 * each vocabulary word, centred per author like the main fit. Sparse accumulation keeps it
 * to seconds: X'X is summed over the words each post holds, then each author's mean outer
 * product is subtracted (the centring), and the system is solved once per penalty.
 */

export interface WordDoc {
  author: string;
  /** Distinct lower-cased words. */
  words: readonly string[];
  target: number;
}

/** A word, or a pair of adjacent words joined by `_` ("thrilled_to"). */
const WORD = /^[\p{L}][\p{L}'_-]*$/u;

/** Words used in at least `minPosts` posts by at least `minAuthors` authors, sorted. */
export function vocabulary(docs: readonly WordDoc[], minPosts: number, minAuthors: number): string[] {
  const posts = new Map<string, number>();
  const authors = new Map<string, Set<string>>();
  for (const d of docs) {
    for (const w of d.words) {
      if (w.length < 2 || !WORD.test(w)) continue;
      posts.set(w, (posts.get(w) ?? 0) + 1);
      const a = authors.get(w) ?? new Set<string>();
      a.add(d.author);
      authors.set(w, a);
    }
  }
  return [...posts]
    .filter(([w, n]) => n >= minPosts && authors.get(w)!.size >= minAuthors)
    .map(([w]) => w)
    .sort();
}

export interface WordSystem {
  vocab: readonly string[];
  xtx: Float64Array;
  xty: Float64Array;
}

/** The penalty-free normal equations; solving for several penalties reuses them. */
export function wordSystem(docs: readonly WordDoc[], vocab: readonly string[]): WordSystem {
  const v = vocab.length;
  const index = new Map(vocab.map((w, i) => [w, i]));
  const xtx = new Float64Array(v * v);
  const xty = new Float64Array(v);
  const byAuthor = new Map<string, { ids: number[]; target: number }[]>();
  for (const d of docs) {
    const ids = d.words.flatMap((w) => (index.has(w) ? [index.get(w)!] : []));
    const list = byAuthor.get(d.author) ?? [];
    list.push({ ids, target: d.target });
    byAuthor.set(d.author, list);
  }
  for (const posts of byAuthor.values()) {
    const n = posts.length;
    const meanY = posts.reduce((s, p) => s + p.target, 0) / n;
    const counts = new Map<number, number>();
    for (const p of posts) {
      for (const i of p.ids) {
        xty[i] = xty[i]! + p.target - meanY;
        counts.set(i, (counts.get(i) ?? 0) + 1);
        for (const j of p.ids) xtx[i * v + j] = xtx[i * v + j]! + 1;
      }
    }
    const used = [...counts];
    for (const [i, ci] of used) for (const [j, cj] of used) xtx[i * v + j] = xtx[i * v + j]! - (ci * cj) / n;
  }
  return { vocab, xtx, xty };
}

export function solveWords({ vocab, xtx, xty }: WordSystem, lambda: number): Map<string, number> {
  const v = vocab.length;
  const a = Float64Array.from(xtx);
  for (let i = 0; i < v; i++) a[i * v + i] = a[i * v + i]! + lambda;
  const beta = solveSpd(a, xty, v);
  return new Map(vocab.map((w, i) => [w, beta[i]!]));
}

/**
 * Within-author measures (SCORING.md: judge the score within an author, never on raw counts
 * across authors): the mean of each author's Spearman correlation between a predictor and
 * log(1 + engagement), and the share of same-author pairs ordered correctly among pairs whose
 * engagement differs by 2x or more.
 */

function ranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let k = i; k <= j; k++) out[order[k]![1]] = (i + j) / 2;
    i = j + 1;
  }
  return out;
}

export function spearman(a: readonly number[], b: readonly number[]): number {
  const ra = ranks(a);
  const rb = ranks(b);
  const n = a.length;
  const ma = ra.reduce((s, x) => s + x, 0) / n;
  const mb = rb.reduce((s, x) => s + x, 0) / n;
  let cov = 0;
  let va = 0;
  let vb = 0;
  for (let i = 0; i < n; i++) {
    cov += (ra[i]! - ma) * (rb[i]! - mb);
    va += (ra[i]! - ma) ** 2;
    vb += (rb[i]! - mb) ** 2;
  }
  return va === 0 || vb === 0 ? 0 : cov / Math.sqrt(va * vb);
}

export interface WithinAuthor {
  /** Mean per-author Spearman. */
  rho: number;
  /** Each author's Spearman, in the order of the groups (paired comparisons use them). */
  perAuthor: number[];
  /** Standard error of `rho`: the spread of the per-author values over the square root of their number. */
  rhoSe: number;
  /** Share of same-author pairs (engagement 2x apart or more) ordered correctly; ties count half. */
  pairwise: number;
  authors: number;
  posts: number;
  pairs: number;
}

/** `groups`: one array per author of [prediction, engagement] pairs. */
export function withinAuthor(groups: readonly (readonly [number, number])[][]): WithinAuthor {
  const perAuthor: number[] = [];
  let right = 0;
  let pairs = 0;
  let posts = 0;
  for (const g of groups) {
    posts += g.length;
    perAuthor.push(
      spearman(
        g.map((p) => p[0]),
        g.map((p) => Math.log1p(p[1])),
      ),
    );
    for (let i = 0; i < g.length; i++) {
      for (let j = i + 1; j < g.length; j++) {
        const [pi, ei] = g[i]!;
        const [pj, ej] = g[j]!;
        const ratio = (1 + ei) / (1 + ej);
        if (ratio < 2 && ratio > 0.5) continue;
        pairs++;
        const dp = pi - pj;
        right += dp === 0 ? 0.5 : Math.sign(dp) === Math.sign(ei - ej) ? 1 : 0;
      }
    }
  }
  return {
    rho: mean(perAuthor),
    perAuthor,
    rhoSe: standardError(perAuthor),
    pairwise: pairs ? right / pairs : 0,
    authors: groups.length,
    posts,
    pairs,
  };
}

const mean = (values: readonly number[]) =>
  values.length ? values.reduce((s, v) => s + v, 0) / values.length : 0;

/** Standard error of the mean of `values` (0 under two values). */
export function standardError(values: readonly number[]): number {
  const n = values.length;
  if (n < 2) return 0;
  const m = mean(values);
  return Math.sqrt(values.reduce((s, v) => s + (v - m) ** 2, 0) / (n - 1) / n);
}

/**
 * How much better `a` ranks than `b` on the same authors: the mean of the per-author
 * differences and its standard error (a paired comparison: authors who are hard for both
 * cancel out, so it is much tighter than either figure's own error).
 */
export function pairedGain(a: WithinAuthor, b: WithinAuthor): { gain: number; se: number } {
  if (a.perAuthor.length !== b.perAuthor.length) throw new Error('paired measures need the same authors');
  const d = a.perAuthor.map((v, i) => v - b.perAuthor[i]!);
  return { gain: mean(d), se: standardError(d) };
}

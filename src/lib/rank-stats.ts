/**
 * Rank statistics for small samples of one author's posts: Spearman correlation, same-author
 * pairwise accuracy and the Mann-Whitney test. Rank-based on purpose: engagement is heavy-tailed
 * and one viral post must not decide a correlation or a "best day".
 */

/** Ranks 1..n, ties sharing their average rank. */
export function ranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) out[order[k]![1]] = rank;
    i = j + 1;
  }
  return out;
}

function pearson(x: readonly number[], y: readonly number[]): number | null {
  const n = x.length;
  if (n < 2) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
}

/** Spearman's rho; null with fewer than 3 pairs or when either side is constant. */
export function spearman(x: readonly number[], y: readonly number[]): number | null {
  if (x.length < 3) return null;
  return pearson(ranks(x), ranks(y));
}

/**
 * Of the pairs whose outcomes differ by `ratio` or more (on 1 + outcome, so zeros compare),
 * the share the predictor orders the same way; a predictor tie counts half. Null without pairs.
 */
export function pairwiseAccuracy(
  predicted: readonly number[],
  outcome: readonly number[],
  ratio = 2,
): { accuracy: number | null; pairs: number } {
  let pairs = 0;
  let right = 0;
  for (let i = 0; i < outcome.length; i++) {
    for (let j = i + 1; j < outcome.length; j++) {
      const hi = Math.max(outcome[i]!, outcome[j]!);
      const lo = Math.min(outcome[i]!, outcome[j]!);
      if (1 + hi < ratio * (1 + lo)) continue;
      pairs++;
      const dp = predicted[i]! - predicted[j]!;
      const dy = outcome[i]! - outcome[j]!;
      if (dp === 0) right += 0.5;
      else if (dp > 0 === dy > 0) right += 1;
    }
  }
  return { accuracy: pairs ? right / pairs : null, pairs };
}

/** Standard normal CDF (Abramowitz-Stegun 7.1.26, error under 1.5e-7). */
export function normalCdf(z: number): number {
  const t = 1 / (1 + (0.3275911 * Math.abs(z)) / Math.SQRT2);
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(z * z) / 2);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * Mann-Whitney U test of `a` against `b`, two-sided, normal approximation with tie correction
 * (fine from about 5 values a side). `effect` is P(a > b) + P(a = b)/2 (0.5 = no difference).
 */
export function mannWhitney(a: readonly number[], b: readonly number[]): { p: number; effect: number } {
  const n1 = a.length;
  const n2 = b.length;
  if (n1 === 0 || n2 === 0) return { p: 1, effect: 0.5 };
  const all = [...a, ...b];
  const r = ranks(all);
  let r1 = 0;
  for (let i = 0; i < n1; i++) r1 += r[i]!;
  const u1 = r1 - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const tieCounts = new Map<number, number>();
  for (const v of all) tieCounts.set(v, (tieCounts.get(v) ?? 0) + 1);
  let ties = 0;
  for (const t of tieCounts.values()) ties += t ** 3 - t;
  const variance = ((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1)));
  const mean = (n1 * n2) / 2;
  if (variance <= 0) return { p: 1, effect: 0.5 };
  const z = (Math.abs(u1 - mean) - 0.5) / Math.sqrt(variance);
  return { p: Math.min(1, 2 * (1 - normalCdf(Math.max(0, z)))), effect: u1 / (n1 * n2) };
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

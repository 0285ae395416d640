import { median, normalCdf, ranks } from '../../lib/rank-stats.ts';
import { ridgeTowardPrior } from './ridge.ts';

/**
 * The personal model: the global model's features re-weighted toward what predicts this
 * author's own results. Within the author (features and log engagement centred on the
 * author's means), it fits log(1 + engagement) ~ a * global prediction + sum(beta_j * z_j)
 * over standardised features z, by ridge regression toward a = 1, beta = 0 (the global model
 * as it is). The penalty is SHRINK_POSTS pseudo-posts, so the data's say grows as
 * n / (n + SHRINK_POSTS): with 10 posts the model stays all but the global one, with 1,000 the
 * author's data has two thirds of the say. The personal weight of feature j is then a * w_j + beta_j / sd_j.
 */

/** personal.v2: `meanScore` (what `expected` is measured from) and each effect's `q`; a v1 model is refitted. */
export const PERSONAL_SCHEMA = 'personal.v2';
/** Posts with engagement needed before a personal model is fitted. */
export const MIN_HISTORY_POSTS = 10;
/** The prior's weight, in posts: chosen on the evaluation's training authors only (20-3,000 tried; 500 ranked their unseen posts best). */
export const SHRINK_POSTS = 500;
/** Posts needed on each side (with / without a feature) to report its measured effect. */
export const MIN_EFFECT_POSTS = 5;

export interface MeasuredEffect {
  /** Feature name (the global model's). */
  feature: string;
  /** Posts with the feature, and their median engagement as a multiple of the author's median. */
  posts: number;
  multiple: number;
  /** The same for the posts without it. */
  without: number;
  withoutPosts: number;
  /** Mann-Whitney, with against without. */
  p: number;
  /** `p` adjusted for every feature tested in this history (Benjamini-Hochberg): the false discovery rate at it. */
  q: number;
  /** The personal model's effect of the feature at its typical value, as a multiple of engagement. */
  modelMultiple: number;
}

export interface PersonalModel {
  schema: typeof PERSONAL_SCHEMA;
  /** The global model version the weights re-weight; another version makes this model stale. */
  globalVersion: string;
  basedOn: number;
  /** Mean log(1 + engagement) and median engagement of the author's posts. */
  meanLog: number;
  /**
   * Standard deviation of the author's log(1 + engagement). The global model predicts in these
   * units (it is trained on a target standardised per author), so its prediction times this is
   * log engagement. Absent on models fitted before it (read as 1).
   */
  sdLog?: number;
  medianEngagement: number;
  /**
   * The mean overall score of the author's posts (the offline engine's, as every history post is
   * read): the point of the 0-100 scale at which a post is expected to earn the author's mean log
   * engagement. `expected` is measured from it (personal/apply.ts).
   */
  meanScore: number;
  /** Per feature (global order): the author's mean value and the personal weight. */
  means: number[];
  weights: number[];
  /** How much of the global prediction the author's data keeps (1 = all of it). */
  globalFactor: number;
  /** Residual quantiles (log scale, widened for the fit's degrees of freedom): the expected range. */
  spread: { low: number; high: number };
  effects: MeasuredEffect[];
}

export interface FitInput {
  names: readonly string[];
  /** Feature vectors in the global model's order. */
  x: readonly Float64Array[];
  engagement: readonly number[];
  /** Each post's overall score as the offline engine gives it (the global model, rules and caps). */
  overall: readonly number[];
  globalWeights: ArrayLike<number>;
  globalVersion: string;
  /** Features whose on/off effect is worth measuring and telling (rules, media). */
  reportable: (index: number) => boolean;
  /** The prior's weight in posts; SHRINK_POSTS unless an evaluation tries another. */
  shrinkPosts?: number;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** Fits a personal model, or null with fewer than MIN_HISTORY_POSTS posts. Deterministic. */
export function fitPersonalModel(input: FitInput): PersonalModel | null {
  const n = input.x.length;
  if (n < MIN_HISTORY_POSTS) return null;
  const p = input.names.length;
  const y = input.engagement.map((e) => Math.log1p(Math.max(0, e)));
  const meanLog = y.reduce((s, v) => s + v, 0) / n;
  const sdLog = Math.sqrt(y.reduce((s, v) => s + (v - meanLog) ** 2, 0) / n) || 1;
  const means = new Float64Array(p);
  for (const row of input.x) for (let j = 0; j < p; j++) means[j]! += row[j]! / n;
  const sds = new Float64Array(p);
  for (const row of input.x) for (let j = 0; j < p; j++) sds[j]! += (row[j]! - means[j]!) ** 2 / n;
  const active: number[] = [];
  for (let j = 0; j < p; j++) {
    sds[j] = Math.sqrt(sds[j]!);
    if (sds[j]! > 1e-9) active.push(j);
  }
  // The global model's prediction for each post, centred on the author, in log engagement.
  const g = input.x.map((row) => {
    let s = 0;
    for (const j of active) s += input.globalWeights[j]! * (row[j]! - means[j]!);
    return s * sdLog;
  });
  const sdG = Math.sqrt(g.reduce((s, v) => s + v * v, 0) / n) || 1;
  const z = input.x.map((row, r) => {
    const out = new Float64Array(active.length + 1);
    out[0] = g[r]! / sdG;
    for (let k = 0; k < active.length; k++) {
      const j = active[k]!;
      out[k + 1] = (row[j]! - means[j]!) / sds[j]!;
    }
    return out;
  });
  const prior = new Float64Array(active.length + 1);
  prior[0] = sdG;
  const yc = y.map((v) => v - meanLog);
  const shrink = input.shrinkPosts ?? SHRINK_POSTS;
  const theta = ridgeTowardPrior(z, yc, prior, shrink);
  const globalFactor = theta[0]! / sdG;
  const weights = new Array<number>(p).fill(0);
  for (let j = 0; j < p; j++) weights[j] = globalFactor * sdLog * input.globalWeights[j]!;
  active.forEach((j, k) => {
    weights[j]! += theta[k + 1]! / sds[j]!;
  });

  // Residuals, widened by sqrt(n / (n - effective parameters)) so the range is not the fit's own.
  const residuals = z.map((row, r) => {
    let fit = 0;
    for (let i = 0; i < row.length; i++) fit += row[i]! * theta[i]!;
    return yc[r]! - fit;
  });
  const dof = Math.max(1, n - (active.length + 1) * (n / (n + shrink)));
  const widen = Math.sqrt(n / dof);
  const sorted = residuals.map((v) => v * widen).sort((a, b) => a - b);

  const medianEngagement = median(input.engagement)!;
  const multipleOf = (sorted: number[]) => (1 + sortedMedian(sorted)) / (1 + medianEngagement);
  // Every feature splits the same posts: rank engagement once, walk the posts in that order so
  // each side comes out sorted, and the Mann-Whitney sum of ranks is one pass per feature.
  const order = input.engagement.map((_, r) => r).sort((a, b) => input.engagement[a]! - input.engagement[b]!);
  const rank = ranks(input.engagement);
  const effects: MeasuredEffect[] = [];
  for (const j of active) {
    if (!input.reportable(j)) continue;
    const on: number[] = [];
    const off: number[] = [];
    const onValues: number[] = [];
    let onRanks = 0;
    for (const r of order) {
      const e = input.engagement[r]!;
      if (input.x[r]![j] !== 0) {
        on.push(e);
        onValues.push(input.x[r]![j]!);
        onRanks += rank[r]!;
      } else off.push(e);
    }
    if (on.length < MIN_EFFECT_POSTS || off.length < MIN_EFFECT_POSTS) continue;
    effects.push({
      feature: input.names[j]!,
      posts: on.length,
      multiple: round2(multipleOf(on)),
      without: round2(multipleOf(off)),
      withoutPosts: off.length,
      p: Number(mannWhitneyFromRanks(onRanks, on.length, off.length, rank).toFixed(4)),
      q: 1,
      modelMultiple: round2(Math.exp(weights[j]! * median(onValues)!)),
    });
  }
  adjustForTests(effects);
  return {
    schema: PERSONAL_SCHEMA,
    globalVersion: input.globalVersion,
    basedOn: n,
    meanLog,
    sdLog,
    medianEngagement,
    meanScore: input.overall.reduce((s, v) => s + v, 0) / n,
    means: [...means],
    weights,
    globalFactor,
    spread: { low: quantile(sorted, 0.1), high: quantile(sorted, 0.9) },
    effects,
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Benjamini-Hochberg: each effect's q is the smallest false discovery rate at which its p would
 * be called clear, among all the effects this history tested (some 17 at 24 posts, 25 at 50:
 * an unadjusted p under 0.05 finds about one by chance in each).
 */
function adjustForTests(effects: MeasuredEffect[]): void {
  const order = effects.map((_, i) => i).sort((a, b) => effects[b]!.p - effects[a]!.p);
  let q = 1;
  order.forEach((i, k) => {
    const rankFromSmallest = effects.length - k;
    q = Math.min(q, (effects[i]!.p * effects.length) / rankFromSmallest);
    effects[i]!.q = Number(q.toFixed(4));
  });
}

function sortedMedian(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const tieTerms = new WeakMap<readonly number[], number>();

/** Two-sided Mann-Whitney p from the first group's rank sum (same normal approximation as rank-stats). */
function mannWhitneyFromRanks(r1: number, n1: number, n2: number, allRanks: readonly number[]): number {
  let ties = tieTerms.get(allRanks);
  if (ties === undefined) {
    const counts = new Map<number, number>();
    for (const v of allRanks) counts.set(v, (counts.get(v) ?? 0) + 1);
    ties = 0;
    for (const t of counts.values()) ties += t ** 3 - t;
    tieTerms.set(allRanks, ties);
  }
  const n = n1 + n2;
  const u1 = r1 - (n1 * (n1 + 1)) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1)));
  if (variance <= 0) return 1;
  const z = (Math.abs(u1 - (n1 * n2) / 2) - 0.5) / Math.sqrt(variance);
  return Math.min(1, 2 * (1 - normalCdf(Math.max(0, z))));
}

/** The personal prediction of log(1 + engagement) relative to the author's mean. */
export function personalPrediction(model: PersonalModel, x: ArrayLike<number>): number {
  let s = 0;
  for (let j = 0; j < model.weights.length; j++) s += model.weights[j]! * (x[j]! - model.means[j]!);
  return s;
}

/** The global model's prediction for the same post, relative to the author's mean, in log engagement. */
export function globalPrediction(
  model: PersonalModel,
  x: ArrayLike<number>,
  globalWeights: ArrayLike<number>,
): number {
  let s = 0;
  for (let j = 0; j < model.weights.length; j++) s += globalWeights[j]! * (x[j]! - model.means[j]!);
  return s * (model.sdLog ?? 1);
}

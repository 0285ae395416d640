import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Dimension, type MediaKind, SCORE_SCHEMA_VERSION } from '../src/domain/enums.ts';
import { gradeHeuristically } from '../src/scoring/judge/heuristic-judge.ts';
import { FEATURES, featureIndex, featureVector, MEDIA_FEATURES } from '../src/scoring/learned/features.ts';
import type { ScoreModel } from '../src/scoring/learned/model.ts';
import { MULTIPLIERS } from '../src/scoring/rules/format.ts';
import { runRules } from '../src/scoring/rules/rules.ts';
import { tokenize } from '../src/scoring/text/phrases.ts';
import { byAuthor, DATA_FILES, type DataPost, readAllData, SPLIT_SEED } from './lib/datasets.ts';
import { ridge } from './lib/linear.ts';
import { V1_DIMENSION_WEIGHTS } from './lib/score-v1.ts';
import { withinAuthor } from './lib/within-author.ts';
import { solveWords, vocabulary, type WordDoc, wordSystem } from './lib/word-model.ts';
import { trainWordOrder } from './lib/word-order-train.ts';

/**
 * npm run train:scoring: fits score.v2 on ../shared/data/ and writes
 * src/scoring/learned/score-v2.model.json. Deterministic: the author split is a seeded hash,
 * the cross-validation folds are a hash of the author, and the fit is closed-form ridge.
 *
 * Target: log(1 + reactions + comments + reposts) minus the author's mean; features are
 * centred per author too (a fixed-effects fit), so the model learns what makes one post do
 * better than the same author's others, never who the author is. Only train authors (5+
 * posts) are fitted; the ridge penalty is chosen by 5-fold cross-validation over train
 * authors on the within-author Spearman. Held-out authors are never read here.
 */

const OUT = join(import.meta.dirname, '../src/scoring/learned/score-v2.model.json');
const WORD_ORDER_OUT = join(import.meta.dirname, '../src/scoring/learned/word-order.json');
const LAMBDAS = [1, 3, 10, 30, 100, 300, 1000, 3000];
const WORD_LAMBDAS = [1000, 3000];
/** A word joins the vocabulary when 40+ train posts of 10+ authors use it. */
const WORD_MIN_POSTS = 40;
const WORD_MIN_AUTHORS = 10;
const FOLDS = 5;
/** Dimension scores spread by about this many points (one standard deviation). */
const DIMENSION_SPREAD = 12;
const CENTER = 60;

interface Row {
  /** The fitted target: log(1 + engagement) standardised within the author (below). */
  y: number;
  post: DataPost;
  x: Float64Array;
  doc: WordDoc;
}

const NO_WORDS = new Map<string, number>();
const WORD_FEATURE = featureIndex('text.word_choice')!;

function rowOf(post: DataPost): Row {
  const input = {
    post: post.text,
    platform: 'platformA' as const,
    ...(post.media ? { media: post.media } : {}),
  };
  const rules = runRules(input);
  const x = featureVector(input, rules, gradeHeuristically(rules), NO_WORDS);
  const tokens = tokenize(rules.features.text);
  // Words and adjacent pairs ("thrilled_to"): words.ts `wordPass` reads both.
  const words = [...new Set([...tokens, ...tokens.slice(1).map((t, i) => `${tokens[i]}_${t}`)])];
  return {
    y: post.target,
    post,
    x,
    doc: { author: `${post.file}:${post.author}`, words, target: post.target },
  };
}

const n = FEATURES.length;
const data = readAllData();
const train = data.filter((p) => !p.heldOut);
const groups: Row[][] = byAuthor(train, 5).map((g) => g.map(rowOf));
/**
 * The target is standardised within each author (log engagement minus the author's mean, over
 * the author's standard deviation), so an author whose posts swing widely does not outweigh
 * the others: every author's ranking counts alike, as in the evaluation's per-author mean.
 * Chosen on cross-validation over training authors (CV Spearman 0.244 against 0.238 raw).
 */
for (const g of groups) {
  const mean = g.reduce((s, r) => s + r.post.target, 0) / g.length;
  const sd = Math.sqrt(g.reduce((s, r) => s + (r.post.target - mean) ** 2, 0) / g.length) || 1;
  for (const r of g) {
    r.y = (r.post.target - mean) / sd;
    r.doc = { ...r.doc, target: r.y };
  }
}
const rows = groups.flat();
const foldOf = (g: Row[]) =>
  createHash('sha256').update(`${SPLIT_SEED}:fold:${g[0]!.post.file}:${g[0]!.post.author}`).digest()[0]! %
  FOLDS;
const vocab = vocabulary(
  rows.map((r) => r.doc),
  WORD_MIN_POSTS,
  WORD_MIN_AUTHORS,
);
const score = (words: Map<string, number>, doc: WordDoc) =>
  doc.words.reduce((s, w) => s + (words.get(w) ?? 0), 0);

/**
 * Word choice is fitted first. Train posts get cross-fitted word scores (each fold scored by
 * a word model that never saw it), so the main fit weighs word choice as it will behave on
 * new posts rather than on the posts it memorised.
 */
const foldSystems = Array.from({ length: FOLDS }, (_, k) =>
  wordSystem(
    groups
      .filter((g) => foldOf(g) !== k)
      .flat()
      .map((r) => r.doc),
    vocab,
  ),
);
const wordCv = WORD_LAMBDAS.map((lambda) => {
  const crossFitted = new Map<Row, number>();
  for (let k = 0; k < FOLDS; k++) {
    const words = solveWords(foldSystems[k]!, lambda);
    for (const g of groups.filter((g) => foldOf(g) === k))
      for (const r of g) crossFitted.set(r, score(words, r.doc));
  }
  const quality = withinAuthor(
    groups.map((g) => g.map((r) => [crossFitted.get(r)!, r.post.engagement] as const)),
  );
  return { lambda, crossFitted, ...quality };
});
const bestWords = wordCv.reduce((a, b) => (b.rho > a.rho ? b : a));
for (const r of rows) r.x[WORD_FEATURE] = bestWords.crossFitted.get(r)!;
const wordWeights = solveWords(
  wordSystem(
    rows.map((r) => r.doc),
    vocab,
  ),
  bestWords.lambda,
);
process.stdout.write(
  `word choice: ${vocab.length} words, lambda ${bestWords.lambda}, CV rho ${bestWords.rho.toFixed(3)}\n`,
);

/** Per-author centring of features and target. */
function centred(gs: Row[][]): { xs: Float64Array[]; ys: number[] } {
  const xs: Float64Array[] = [];
  const ys: number[] = [];
  for (const g of gs) {
    const mx = new Float64Array(n);
    let my = 0;
    for (const r of g) {
      for (let i = 0; i < n; i++) mx[i] = mx[i]! + r.x[i]! / g.length;
      my += r.y / g.length;
    }
    for (const r of g) {
      xs.push(r.x.map((v, i) => v - mx[i]!));
      ys.push(r.y - my);
    }
  }
  return { xs, ys };
}

/** Fits in standardised units (so one penalty suits every feature), returns raw-unit weights. */
/**
 * A feature the data barely informs (it varies within an author on fewer than MIN_SUPPORT
 * train posts: posting day and hour, which the exports lack; polls and documents, a handful
 * of posts) is not fitted: a weight from a few posts would be noise. Rules among them keep
 * their score.v1 effect as a stated prior (below); other features get none.
 */
const MIN_SUPPORT = 30;
const supported = (() => {
  const { xs } = centred(groups);
  return FEATURES.map((_, i) => xs.filter((x) => Math.abs(x[i]!) > 1e-9).length >= MIN_SUPPORT);
})();
/**
 * The format is not fitted with the text: each media kind's effect is estimated on its own
 * below (within author, against the same authors' text-only posts, shrunk toward the
 * published figure), and `format.multiplier`, the published figure as a rule, gives way to it.
 */
const MEDIA_INDEX = new Map(MEDIA_FEATURES.map((m) => [m, featureIndex(`media.${m}`)!]));
const FORMAT_RULE = featureIndex('format.multiplier')!;
const separate = new Set([...MEDIA_INDEX.values(), FORMAT_RULE]);

/**
 * Rules keep their stated direction: a rule is a published fact (SCORING.md) and the fit
 * decides how much it matters, never that it works backwards. A rule whose fitted weight
 * comes out against its direction (often a confound such as writing habits that changed
 * while an author's audience grew) is dropped from the fit and refitted without: weight 0.
 */
function fit(gs: Row[][], lambda: number, contradicted: Set<number> = new Set()): Float64Array {
  const { xs, ys } = centred(gs);
  const rms = new Float64Array(n);
  for (const x of xs) for (let i = 0; i < n; i++) rms[i] = rms[i]! + (x[i]! * x[i]!) / xs.length;
  for (;;) {
    const sd = rms.map((v, i) =>
      supported[i] && !separate.has(i) && !contradicted.has(i) ? Math.sqrt(v) : 0,
    );
    const zs = xs.map((x) => x.map((v, i) => (sd[i]! > 1e-9 ? v / sd[i]! : 0)));
    const w = ridge(zs, ys, lambda).map((v, i) => (sd[i]! > 1e-9 ? v / sd[i]! : 0));
    // Judge grades keep their direction too: a better grade never lowers the score.
    const against = FEATURES.flatMap((f, i) =>
      (f.kind === 'rule' || f.kind === 'judge') && w[i]! < 0 ? [i] : [],
    );
    if (against.length === 0) return w;
    for (const i of against) contradicted.add(i);
  }
}

const predict = (w: Float64Array, x: Float64Array) => x.reduce((s, v, i) => s + v * w[i]!, 0);

const cv = LAMBDAS.map((lambda) => {
  const scored: (readonly [number, number])[][] = [];
  for (let k = 0; k < FOLDS; k++) {
    const inFold = groups.filter((g) => foldOf(g) !== k);
    const w = fit(inFold, lambda);
    // The formats' effects are estimated in-fold too, so the figure measures the whole model.
    for (const [kind, m] of Object.entries(estimateMedia(inFold, w, false)))
      w[MEDIA_INDEX.get(kind as MediaKind)!] = m.effect;
    for (const g of groups.filter((g) => foldOf(g) === k))
      scored.push(g.map((r) => [predict(w, r.x), r.post.engagement] as const));
  }
  return { lambda, ...withinAuthor(scored) };
});
const best = cv.reduce((a, b) => (b.rho > a.rho ? b : a));
const lengthBaseline = withinAuthor(
  groups.map((g) => g.map((r) => [r.post.text.trim().length, r.post.engagement] as const)),
);
process.stdout.write(
  `train authors, length alone: rho ${lengthBaseline.rho.toFixed(3)}, pairwise ${(100 * lengthBaseline.pairwise).toFixed(1)}%\n`,
);
const contradicted = new Set<number>();
const w = fit(groups, best.lambda, contradicted);

const media = estimateMedia(groups, w);
for (const [kind, m] of Object.entries(media)) w[MEDIA_INDEX.get(kind as MediaKind)!] = m.effect;
w[FORMAT_RULE] = 0;

// Means over training posts; dimension weights from each dimension's within-author spread.
const mean = new Float64Array(n);
for (const r of rows) for (let i = 0; i < n; i++) mean[i] = mean[i]! + r.x[i]! / rows.length;
// A format's effect is counted from a text-only post (mean 0), so text alone adds nothing.
for (const i of MEDIA_INDEX.values()) mean[i] = 0;
const { xs } = centred(groups);
const spread = Object.fromEntries(Dimension.options.map((d) => [d, 0])) as Record<Dimension, number>;
for (const d of Dimension.options) {
  const idx = FEATURES.flatMap((f, i) => (f.dimension === d ? [i] : []));
  let ss = 0;
  for (const x of xs) {
    const c = idx.reduce((s, i) => s + w[i]! * x[i]!, 0);
    ss += c * c;
  }
  spread[d] = Math.sqrt(ss / xs.length);
}
const total = Object.values(spread).reduce((s, v) => s + v, 0);
const weights = Object.fromEntries(
  Dimension.options.map((d) => [d, Math.round((10_000 * spread[d]) / total) / 10_000]),
) as Record<Dimension, number>;
// Rounding residue goes to the heaviest dimension, so the published weights sum to exactly 1.
const heaviest = Dimension.options.reduce((a, b) => (weights[b] > weights[a] ? b : a));
weights[heaviest] =
  Math.round(
    10_000 * (1 - Dimension.options.filter((d) => d !== heaviest).reduce((s, d) => s + weights[d], 0)),
  ) / 10_000;

const scale = DIMENSION_SPREAD / total;
// Unfitted rules keep their v1 effect on overall: points x the v1 weight of their dimension
// (a rule feature is its points / 10, and a feature moves overall by scale x weight x value).
for (let i = 0; i < n; i++) {
  const f = FEATURES[i]!;
  if (!supported[i] && !separate.has(i))
    w[i] = f.kind === 'rule' ? (V1_DIMENSION_WEIGHTS[f.dimension] * 10) / scale : 0;
}
const sig = (v: number) => Number(v.toPrecision(6));
const body = {
  center: CENTER,
  scale: sig(scale),
  dimensionWeights: weights,
  features: FEATURES.map((f, i) => ({
    name: f.name,
    dimension: f.dimension,
    mean: sig(mean[i]!),
    weight: sig(w[i]!),
  })),
  media,
  words: Object.fromEntries(
    [...wordWeights]
      .filter(([, b]) => Math.abs(b) >= 1e-3)
      .map(([word, b]) => [word, Number(b.toPrecision(3))]),
  ),
};
const model: ScoreModel = {
  schema: SCORE_SCHEMA_VERSION,
  version: `${SCORE_SCHEMA_VERSION}-${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 10)}`,
  ...body,
  training: {
    files: DATA_FILES,
    split: `authors held out by sha256("${SPLIT_SEED}:<file>:<author>")[0] % 3 == 0`,
    target: 'log(1 + reactions + comments + reposts), standardised per author',
    posts: rows.length,
    authors: groups.length,
    lambda: best.lambda,
    contradicted: [...contradicted].sort((a, b) => a - b).map((i) => FEATURES[i]!.name),
    priorOnly: FEATURES.filter((_, i) => !supported[i]).map((f) => f.name),
    vocabulary: vocab.length,
    wordLambda: bestWords.lambda,
    wordCrossValidation: wordCv.map((c) => ({ lambda: c.lambda, rho: Number(c.rho.toFixed(4)) })),
    crossValidation: cv.map((c) => ({
      lambda: c.lambda,
      rho: Number(c.rho.toFixed(4)),
      pairwise: Number(c.pairwise.toFixed(4)),
    })),
  },
};
writeFileSync(OUT, `${JSON.stringify(model, null, 1)}\n`);
writeFileSync(WORD_ORDER_OUT, `${JSON.stringify(trainWordOrder(train))}\n`);
process.stdout.write(
  `media effects (overall points against text): ${Object.entries(media)
    .map(
      ([k, m]) =>
        `${k} ${(scale * m.effect).toFixed(1)} [${(scale * m.low).toFixed(1)}, ${(scale * m.high).toFixed(1)}] ${m.posts} posts${m.measured ? '' : ' (prior)'}`,
    )
    .join('; ')}\n`,
);
process.stdout.write(
  `trained ${model.version} on ${rows.length} posts of ${groups.length} train authors (lambda ${best.lambda}, CV rho ${best.rho.toFixed(3)}, pairwise ${(100 * best.pairwise).toFixed(1)}%)\n` +
    `dimension weights: ${JSON.stringify(weights)}\nwrote ${OUT}\n`,
);

/**
 * Each media kind's effect against text only, in the target's units (author standard
 * deviations of log engagement). Data: on the residual of the text model (so a format is not
 * credited for the text that comes with it), each training author with posts of the kind and
 * text-only posts gives the difference of their mean residuals; authors pool by the harmonic
 * weight 1 / (1/n_kind + 1/n_text), and the standard error is the larger of the residual-noise
 * one and the spread between authors. Prior: the published reach ratio (format.ts, van der Blom
 * 2024) against text, ln(multiplier / 1.17), over the authors' mean standard deviation of log
 * engagement, worth PRIOR_POSTS posts (a prior sd of 1/sqrt(PRIOR_POSTS) in these units). A
 * kind with fewer than MIN_MEDIA_POSTS posts in the comparison takes the prior alone.
 */
function estimateMedia(gs: Row[][], weights: Float64Array, report = true) {
  const PRIOR_POSTS = 100;
  const MIN_MEDIA_POSTS = 30;
  const logSd =
    gs.reduce((s, g) => {
      const m = g.reduce((a, r) => a + r.post.target, 0) / g.length;
      return s + Math.sqrt(g.reduce((a, r) => a + (r.post.target - m) ** 2, 0) / g.length);
    }, 0) / gs.length;
  const out: Record<
    string,
    {
      effect: number;
      low: number;
      high: number;
      posts: number;
      authors: number;
      measured: boolean;
      prior: number;
    }
  > = {};
  const residuals = gs.map((g) => {
    const { xs, ys } = centred([g]);
    return g.map((r, k) => ({ media: r.post.media, e: ys[k]! - predict(weights, xs[k]!) }));
  });
  let noise = 0;
  let count = 0;
  for (const g of residuals) {
    for (const r of g) {
      if (!r.media) continue;
      noise += r.e * r.e;
      count++;
    }
  }
  const sigma2 = count > 0 ? noise / count : 1;
  for (const kind of MEDIA_FEATURES) {
    if (kind === 'none') continue;
    const prior = Math.log(MULTIPLIERS[kind] / MULTIPLIERS.none) / logSd;
    const priorVar = 1 / PRIOR_POSTS;
    const diffs: { d: number; h: number; n: number }[] = [];
    for (const g of residuals) {
      const k = g.filter((r) => r.media === kind);
      const t = g.filter((r) => r.media === 'none');
      if (k.length === 0 || t.length === 0) continue;
      const mk = k.reduce((s, r) => s + r.e, 0) / k.length;
      const mt = t.reduce((s, r) => s + r.e, 0) / t.length;
      diffs.push({ d: mk - mt, h: 1 / (1 / k.length + 1 / t.length), n: k.length });
    }
    const posts = diffs.reduce((s, d) => s + d.n, 0);
    if (posts < MIN_MEDIA_POSTS) {
      const sd = Math.sqrt(priorVar);
      out[kind] = {
        effect: prior,
        low: prior - 1.96 * sd,
        high: prior + 1.96 * sd,
        posts,
        authors: diffs.length,
        measured: false,
        prior,
      };
      continue;
    }
    const H = diffs.reduce((s, d) => s + d.h, 0);
    const est = diffs.reduce((s, d) => s + d.h * d.d, 0) / H;
    const between = diffs.reduce((s, d) => s + d.h * d.h * (d.d - est) ** 2, 0) / (H * H);
    const dataVar = Math.max(
      sigma2 / H,
      diffs.length > 1 ? (between * diffs.length) / (diffs.length - 1) : 0,
    );
    const postVar = 1 / (1 / dataVar + 1 / priorVar);
    const effect = postVar * (est / dataVar + prior / priorVar);
    const sd = Math.sqrt(postVar);
    out[kind] = {
      effect,
      low: effect - 1.96 * sd,
      high: effect + 1.96 * sd,
      posts,
      authors: diffs.length,
      measured: true,
      prior,
    };
    if (report)
      process.stdout.write(
        `media ${kind}: data ${est.toFixed(3)} ± ${Math.sqrt(dataVar).toFixed(3)} (${posts} posts, ${diffs.length} authors), prior ${prior.toFixed(3)}, posterior ${effect.toFixed(3)}\n`,
      );
  }
  const round = (v: number) => Number(v.toPrecision(6));
  return Object.fromEntries(
    Object.entries(out).map(([k, m]) => [
      k,
      { ...m, effect: round(m.effect), low: round(m.low), high: round(m.high), prior: round(m.prior) },
    ]),
  );
}

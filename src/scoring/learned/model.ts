import { type Dimension, SCORE_SCHEMA_VERSION } from '../../domain/enums.ts';
import { clamp } from '../rules/rule-kit.ts';
import type { Breakdown } from '../types.ts';
import { FEATURE_NAMES } from './features.ts';
import artifact from './score-v2.model.json' with { type: 'json' };

/**
 * The learned score model (score.v2): a linear model of within-author engagement over the
 * named features (features.ts), fitted by scripts/train-scoring.ts into score-v2.model.json.
 * Each feature's contribution for a post is `weight * (value - mean)`: what it adds to the
 * predicted log engagement against a typical post. Contributions sum per dimension; each
 * dimension score is `center + scale * sum / dimensionWeight`, so `overall`, the weighted sum
 * of the six dimensions, is `center + scale * prediction` (before clamping and caps) and a
 * feature's effect on `overall` is `scale * contribution` points.
 */

export interface ScoreModelFeature {
  name: string;
  dimension: Dimension;
  /** Mean value on the training posts: a contribution is measured from it. */
  mean: number;
  /**
   * Change in predicted log(1 + engagement) per unit of the feature, within an author, in
   * units of the author's standard deviation (the training target is standardised per author).
   */
  weight: number;
}

export interface ScoreModel {
  schema: string;
  /** `score.v2-<hash of the weights>`: part of every score cache key. */
  version: string;
  /** Dimension and overall score of a post whose prediction equals the training mean. */
  center: number;
  /** Overall points per unit of prediction (one author standard deviation of log engagement). */
  scale: number;
  /** Learned, sum to 1; /v1/meta publishes them. */
  dimensionWeights: Record<Dimension, number>;
  features: ScoreModelFeature[];
  /**
   * Each media kind's effect against a text-only post (the weight of its `media.<kind>`
   * feature), with where it came from: `measured` when the training posts hold enough of the
   * kind to estimate it within author (then shrunk toward the published figure), else the
   * published figure alone. docs/scoring.md tabulates them.
   */
  media: Record<
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
  >;
  /** Learned within-author effect of each vocabulary word (features.ts `text.word_choice`). */
  words: Record<string, number>;
  training: Record<string, unknown>;
}

/** The committed artifact, checked against the code's feature list once. */
let loaded: ScoreModel | null = null;

export function scoreModel(): ScoreModel {
  if (loaded) return loaded;
  const model = artifact as ScoreModel;
  checkModel(model);
  loaded = model;
  return model;
}

/**
 * Dimension weights (DECISIONS.md): from score.v2 they are learned with the scoring model
 * (npm run train:scoring writes them into its artifact); they sum to 1, /v1/meta publishes
 * them, and `overall` is the weighted sum of the breakdown with exactly these.
 */
export const DIMENSION_WEIGHTS: Record<Dimension, number> = artifact.dimensionWeights;

/** A model whose features or schema do not match this code is refused (rerun training). */
export function checkModel(model: ScoreModel): void {
  if (model.schema !== SCORE_SCHEMA_VERSION)
    throw new Error(`score model is ${model.schema}; this code scores ${SCORE_SCHEMA_VERSION}`);
  const names = model.features.map((f) => f.name);
  if (names.length !== FEATURE_NAMES.length || names.some((n, i) => n !== FEATURE_NAMES[i]))
    throw new Error(
      'score model features differ from src/scoring/learned/features.ts: run npm run train:scoring',
    );
  const sum = Object.values(model.dimensionWeights).reduce((s, w) => s + w, 0);
  if (Math.abs(sum - 1) > 1e-9) throw new Error(`score model dimension weights sum to ${sum}, not 1`);
}

const measured = new WeakMap<ScoreModel, ReadonlySet<string>>();

/** The media kinds whose effect the training data measured. */
export function measuredFormats(model: ScoreModel): ReadonlySet<string> {
  let set = measured.get(model);
  if (!set) {
    set = new Set(Object.entries(model.media ?? {}).flatMap(([k, m]) => (m.measured ? [k] : [])));
    measured.set(model, set);
  }
  return set;
}

const wordMaps = new WeakMap<ScoreModel, Map<string, number>>();

/** The model's word effects as a map, built once per model. */
export function wordWeights(model: ScoreModel): Map<string, number> {
  let map = wordMaps.get(model);
  if (!map) {
    map = new Map(Object.entries(model.words));
    wordMaps.set(model, map);
  }
  return map;
}

export interface ModelOutput {
  /** Per feature (FEATURES order): its effect on `overall`, in points. */
  effects: Float64Array;
  /** Dimension scores, clamped to 0-100, before caps and rounding. */
  breakdown: Breakdown;
}

const DIMENSION_ORDER: readonly Dimension[] = [
  'hook',
  'algorithmFit',
  'specificity',
  'structure',
  'voice',
  'engagement',
];
const dimensionIndices = new WeakMap<ScoreModel, Uint8Array>();

/** Each feature's dimension as an index into DIMENSION_ORDER, built once per model. */
function dimensionIndicesOf(model: ScoreModel): Uint8Array {
  let indices = dimensionIndices.get(model);
  if (!indices) {
    indices = Uint8Array.from(model.features, (f) => DIMENSION_ORDER.indexOf(f.dimension));
    dimensionIndices.set(model, indices);
  }
  return indices;
}

/**
 * Applies a model to a feature vector (features.ts `featureVector`). The sums are kept by
 * dimension index, not by name: a property written under six different names per call was a
 * slow (megamorphic) store on every feature. `into`, when as long as `x`, receives the effects
 * (every slot is written): a caller that reads them before its next call reuses one array, as
 * a typed array longer than 64 bytes is allocated outside V8's heap, at about 1% of the
 * scorer's time in a CPU profile (2026-11-27).
 */
export function applyModel(
  x: Float64Array,
  model: ScoreModel = scoreModel(),
  into?: Float64Array,
): ModelOutput {
  const effects = into !== undefined && into.length === x.length ? into : new Float64Array(x.length);
  const sums = new Float64Array(DIMENSION_ORDER.length);
  const dimensions = dimensionIndicesOf(model);
  const features = model.features;
  for (let i = 0; i < x.length; i++) {
    const f = features[i]!;
    const e = model.scale * f.weight * (x[i]! - f.mean);
    effects[i] = e;
    sums[dimensions[i]!]! += e;
  }
  const w = model.dimensionWeights;
  const c = model.center;
  const breakdown: Breakdown = {
    hook: clamp(c + sums[0]! / w.hook),
    algorithmFit: clamp(c + sums[1]! / w.algorithmFit),
    specificity: clamp(c + sums[2]! / w.specificity),
    structure: clamp(c + sums[3]! / w.structure),
    voice: clamp(c + sums[4]! / w.voice),
    engagement: clamp(c + sums[5]! / w.engagement),
  };
  return { effects, breakdown };
}

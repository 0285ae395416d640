import type { PersonalScore, Signal, Span } from '../types.ts';
import { featureConcept, featureDimension, featureLabel } from './features.ts';
import { globalPrediction, type PersonalModel, personalPrediction } from './fit.ts';
import { effectSentence, timesText, toldEffects } from './told-effects.ts';

/**
 * The `personal` part of a score: the post as this author's own model sees it. `overall` is the
 * global overall moved by the difference between the personal and the global prediction (in
 * the global model's points per standard deviation of the author's log engagement), so with
 * little history it stays near the global score and with much it follows the author's data.
 *
 * `expected` is that same number in the author's units: the score's distance from the mean
 * score of the author's own posts (`meanScore`), at the global model's rate of points per
 * standard deviation of log engagement, is the post's log engagement against the author's mean.
 * So a higher personal score always means a higher expected multiple, whatever moved the score:
 * the learned features, or a stated cap or penalty after the model (an external link, a post over
 * the limit, repeated text), which the personal prediction alone does not see. The range around
 * it is the author's residual spread.
 */

// Declared with ScoreResult (types.ts), so the result type does not import this module.
export type { PersonalScore } from '../types.ts';

const MAX_SIGNALS = 4;
/** Within this many points of the general score, the history is said to rate a post about the same. */
const SAME_POINTS = 2;

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;
const clamp = (x: number) => Math.min(100, Math.max(0, x));

function weightOf(multiple: number): number {
  const l = Math.abs(Math.log(multiple));
  return l >= 1 ? 5 : l >= 0.6 ? 4 : l >= 0.35 ? 3 : l >= 0.15 ? 2 : 1;
}

const aboutText = (m: number) => (m < 0.005 ? timesText(m) : `about ${timesText(m)}`);
const rangeText = ({ low, high }: { low: number; high: number }) =>
  low < 0.005 ? `likely at most ${timesText(high)}` : `likely ${timesText(low)} to ${timesText(high)}`;

export function personalScore(
  model: PersonalModel,
  x: Float64Array,
  global: { overall: number; weights: ArrayLike<number>; scale: number; names: readonly string[] },
  /** Where a signal about a feature points in the post (scorer.ts `ScoredPost.spansFor`). */
  spansFor: (feature: string) => Span[] = () => [],
): PersonalScore {
  const sdLog = model.sdLog ?? 1;
  // Both predictions are log engagement; the global scale is points per author standard deviation.
  const moved =
    (global.scale * (personalPrediction(model, x) - globalPrediction(model, x, global.weights))) / sdLog;
  const score = global.overall + moved;
  const overall = round1(clamp(score));
  const logAgainstMean = ((score - model.meanScore) * sdLog) / global.scale;
  const unit = 1 + model.medianEngagement;
  const multiple = (offset: number) => round2(Math.exp(model.meanLog + logAgainstMean + offset) / unit);
  const expected = {
    low: multiple(model.spread.low),
    median: multiple(0),
    high: multiple(model.spread.high),
  };

  const index = new Map(global.names.map((n, i) => [n, i]));
  const signals: Signal[] = toldEffects(model, (f) => x[index.get(f)!] !== 0)
    .slice(0, MAX_SIGNALS)
    .map(({ effect: e, direction }) => ({
      dimension: featureDimension(e.feature),
      concept: featureConcept(e.feature),
      impact: direction === 'lifts' ? 'positive' : 'negative',
      weight: weightOf(e.multiple / e.without),
      label: `Your history: ${featureLabel(e.feature)}`,
      detail: effectSentence(e),
      rule: `personal.${e.feature}`,
      spans: spansFor(e.feature),
    }));

  // Said of the two scores as shown (both are clamped to 0-100), not of the prediction behind them.
  const gap = overall - global.overall;
  const direction =
    gap > SAME_POINTS ? 'higher than' : gap < -SAME_POINTS ? 'lower than' : 'about the same as';
  // The score at which a post is expected to earn the author's median (1x), when it is on the scale.
  const atMedian = model.meanScore + ((Math.log(unit) - model.meanLog) * global.scale) / sdLog;
  const note = [
    `Based on ${model.basedOn} of your posts with engagement, this post is expected to earn ${aboutText(expected.median)} your median engagement (${rangeText(expected)}).`,
    ...(atMedian >= 0 && atMedian <= 100
      ? [`A post with a personal score of ${Math.round(atMedian)} would earn about your median.`]
      : []),
    `Your history rates this post ${direction} the general score does.`,
  ].join(' ');
  return { overall, basedOn: model.basedOn, expected, note, signals };
}

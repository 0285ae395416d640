import { labelInSentence } from '../../lib/label-in-sentence.ts';
import type { RuleOutcome } from '../rules/rules.ts';
import type { PersonalScore, Signal } from '../types.ts';
import { featureDimension, featureLabel } from './features.ts';
import { globalPrediction, type PersonalModel, personalPrediction } from './fit.ts';

/**
 * The `personal` part of a score: the post as this author's own model sees it. `overall` is the
 * global overall moved by the difference between the personal and the global prediction (in
 * the global model's points per standard deviation of the author's log engagement), so with little history it stays near
 * the global score and with much it follows the author's data. `expected` is engagement as
 * multiples of the author's median: the prediction, and the author's residual spread around it.
 */

// Declared with ScoreResult (types.ts), so the result type does not import this module.
export type { PersonalScore } from '../types.ts';

/** Measured effects shown on a post: at least this convincing (Mann-Whitney, unadjusted). */
const SIGNAL_P = 0.05;
const MAX_SIGNALS = 4;

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;
const clamp = (x: number) => Math.min(100, Math.max(0, x));
const times = (m: number) => `${m.toFixed(m >= 10 ? 0 : m >= 2 ? 1 : 2)}x`;

function weightOf(multiple: number): number {
  const l = Math.abs(Math.log(multiple));
  return l >= 1 ? 5 : l >= 0.6 ? 4 : l >= 0.35 ? 3 : l >= 0.15 ? 2 : 1;
}

export function personalScore(
  model: PersonalModel,
  x: Float64Array,
  rules: RuleOutcome,
  global: { overall: number; weights: ArrayLike<number>; scale: number; names: readonly string[] },
): PersonalScore {
  const mine = personalPrediction(model, x);
  const theirs = globalPrediction(model, x, global.weights);
  // Both predictions are log engagement; the global scale is points per author standard deviation.
  const overall = round1(clamp(global.overall + (global.scale * (mine - theirs)) / (model.sdLog ?? 1)));
  const unit = 1 + model.medianEngagement;
  const multiple = (offset: number) => round2(Math.exp(model.meanLog + mine + offset) / unit);
  const expected = {
    low: multiple(model.spread.low),
    median: multiple(0),
    high: multiple(model.spread.high),
  };

  const labels = new Map(rules.hits.map((h) => [h.rule, h.label]));
  const signals: Signal[] = model.effects
    .filter((e) => e.p < SIGNAL_P && e.multiple !== e.without)
    .filter((e) => x[global.names.indexOf(e.feature)] !== 0)
    .sort((a, b) => Math.abs(Math.log(b.multiple / b.without)) - Math.abs(Math.log(a.multiple / a.without)))
    .slice(0, MAX_SIGNALS)
    .map((e) => {
      const label = labels.get(e.feature) ?? featureLabel(e.feature);
      const better = e.multiple > e.without;
      return {
        dimension: featureDimension(e.feature),
        impact: better ? 'positive' : 'negative',
        weight: weightOf(e.multiple / e.without),
        label: `Your history: ${label}`,
        detail: `Your ${e.posts} posts with this (${labelInSentence(label)}) earned ${times(e.multiple)} your median engagement; the ${e.withoutPosts} without it, ${times(e.without)}.`,
        rule: `personal.${e.feature}`,
      } satisfies Signal;
    });

  const direction =
    overall > global.overall + 2 ? 'higher than' : overall < global.overall - 2 ? 'lower than' : 'close to';
  const note = `Based on ${model.basedOn} of your posts with engagement: expected about ${times(expected.median)} your median engagement (likely ${times(expected.low)} to ${times(expected.high)}); your history rates it ${direction} the general model does.`;
  return { overall, basedOn: model.basedOn, expected, note, signals };
}

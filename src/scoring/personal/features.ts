import { gradeHeuristically } from '../judge/heuristic-judge.ts';
import { FEATURE_NAMES, FEATURES, withJudgeGrades } from '../learned/features.ts';
import { type ScoreModel, scoreModel } from '../learned/model.ts';
import type { RuleOutcome } from '../rules/rules.ts';
import { scoreHeuristicallyKeeping } from '../scorer.ts';
import type { ScoreInput } from '../types.ts';
import { factorWords } from './factor-words.ts';

/**
 * A history post as the personal model reads it: the global model's features, always as the
 * offline engine computes them (rules + heuristic judge), and its overall score from them (the
 * global model, caps and penalties), which places the author's posts on the 0-100 scale
 * (`PersonalModel.meanScore`). History posts are never sent to a language model, so the post
 * being scored is read the same way (`offlineFeaturesOf`), whichever judge grades the global score.
 */
export function offlineScored(
  input: ScoreInput,
  model: ScoreModel = scoreModel(),
): { x: Float64Array; overall: number } {
  const { x, result } = scoreHeuristicallyKeeping(input, model);
  return { x, overall: result.overall };
}

/**
 * The offline features of a post already scored (its rules' outcome and the feature vector the
 * global score used, whichever judge graded it): the judge slots take the offline judge's
 * grades, the rest is the same, so the rules and features are not run a second time.
 */
export function offlineFeaturesOf(rules: RuleOutcome, x: Float64Array): Float64Array {
  return withJudgeGrades(x, gradeHeuristically(rules));
}

/** The global model's weights in feature order, and what the personal model needs to know of it. */
export function globalWeights(model: ScoreModel = scoreModel()): Float64Array {
  return Float64Array.from(model.features.map((f) => f.weight));
}

/** Features whose with/without effect is measured and told: those a writer can see in a post (factor-words.ts). */
export const reportable = (index: number): boolean => {
  const spec = FEATURES[index];
  return spec !== undefined && factorWords(spec.name) !== undefined;
};

/** A told feature's name outside any post (insights, the personal signals): factor-words.ts, else the feature's label. */
export function featureLabel(name: string): string {
  return factorWords(name)?.label ?? FEATURES[FEATURE_NAMES.indexOf(name)]?.label ?? name;
}

/** A feature's concept (concepts.ts); told features are always named ones. */
export function featureConcept(name: string) {
  return FEATURES[FEATURE_NAMES.indexOf(name)]?.concept ?? 'voice';
}

export function featureDimension(name: string) {
  return FEATURES[FEATURE_NAMES.indexOf(name)]?.dimension ?? 'engagement';
}

export { FEATURE_NAMES };

import { gradeHeuristically } from '../judge/heuristic-judge.ts';
import { FEATURE_NAMES, FEATURES, featureVector, withJudgeGrades } from '../learned/features.ts';
import { type ScoreModel, scoreModel, wordWeights } from '../learned/model.ts';
import { type RuleOutcome, runRules } from '../rules/rules.ts';
import type { ScoreInput } from '../types.ts';

/**
 * The personal model reads the global model's features, always as the offline engine computes
 * them (rules + heuristic judge): history posts are never sent to a language model, so the
 * post being scored is read the same way, whichever judge grades the global score.
 */
export function offlineFeatures(
  input: ScoreInput,
  model: ScoreModel = scoreModel(),
): { x: Float64Array; rules: RuleOutcome } {
  const rules = runRules(input);
  return { x: featureVector(input, rules, gradeHeuristically(rules), wordWeights(model)), rules };
}

/**
 * `offlineFeatures` of a post already scored (its rules' outcome and the feature vector the
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

/** Features whose on/off effect is measured and told: rules, named formats, and measures (not judge grades). */
export const reportable = (index: number): boolean => {
  const spec = FEATURES[index];
  return spec !== undefined && spec.kind !== 'judge';
};

/** A readable name for a feature outside any post (insights): its label, or the rule name spelled out. */
export function featureLabel(name: string): string {
  const spec = FEATURES[FEATURE_NAMES.indexOf(name)];
  if (spec && spec.kind !== 'rule') return spec.label;
  const [area, rule] = name.split('.');
  return `${area}: ${(rule ?? '').replace(/_/g, ' ')}`;
}

export function featureDimension(name: string) {
  return FEATURES[FEATURE_NAMES.indexOf(name)]?.dimension ?? 'engagement';
}

export { FEATURE_NAMES };

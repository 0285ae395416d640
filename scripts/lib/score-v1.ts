import type { Dimension } from '../../src/domain/enums.ts';
import { gradeHeuristically } from '../../src/scoring/judge/heuristic-judge.ts';
import { clamp } from '../../src/scoring/rules/rule-kit.ts';
import { runRules } from '../../src/scoring/rules/rules.ts';
import type { Breakdown, ScoreInput } from '../../src/scoring/types.ts';

/**
 * The score.v1 offline engine's overall, kept so `npm run eval:scoring` can print it beside
 * score.v2 on the same posts: hand-set rule points, judged dimensions half heuristic judge
 * and half rules, caps last, and the fixed v1 weights (DECISIONS.md). Nothing serves it.
 */

export const V1_DIMENSION_WEIGHTS: Record<Dimension, number> = {
  hook: 0.25,
  algorithmFit: 0.2,
  specificity: 0.15,
  structure: 0.15,
  voice: 0.1,
  engagement: 0.15,
};

export function overallV1(input: ScoreInput): number {
  const rules = runRules(input);
  const grades = gradeHeuristically(rules);
  const breakdown: Breakdown = { ...rules.scores };
  for (const d of ['hook', 'specificity', 'voice', 'engagement'] as const) {
    breakdown[d] = 0.5 * grades.scores[d] + 0.5 * rules.scores[d];
  }
  for (const [d, cap] of Object.entries(rules.caps) as [Dimension, { max: number }][]) {
    breakdown[d] = Math.min(breakdown[d], cap.max);
  }
  let sum = 0;
  for (const d of Object.keys(V1_DIMENSION_WEIGHTS) as Dimension[]) {
    sum += V1_DIMENSION_WEIGHTS[d] * Math.round(clamp(breakdown[d]));
  }
  return Math.round(clamp(sum) * 10) / 10;
}

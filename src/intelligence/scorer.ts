import { DIMENSION_WEIGHTS, type Dimension, SCORE_SCHEMA_VERSION } from '../domain/enums.ts';
import { gradeHeuristically } from './heuristic-judge.ts';
import { clamp } from './rule-kit.ts';
import { type RuleOutcome, runRules } from './rules.ts';
import type { Breakdown, ScoreInput, ScoreResult, Signal } from './types.ts';

/**
 * One ScoreResult from two layers (SCORING.md "Shape"): the deterministic rules and a judge
 * (the offline heuristic or a language model). The judge grades the subjective dimensions;
 * the merge blends them with the rule scores, applies the caps last (caps win), and
 * computes `overall` as the weighted sum with the published weights. No judge ever sets it.
 */

export type JudgedDimension = 'hook' | 'specificity' | 'voice' | 'engagement';

export interface JudgeGrades {
  scores: Record<JudgedDimension, number> & { structure?: number };
  /** The judge's own observations (no `rule`). */
  signals: Signal[];
}

/** A judge grades what rules cannot; implementations: heuristic (offline) and the model judge. */
export interface Judge {
  /** `heuristic` or `<provider>:<model>`; part of every cache key. */
  readonly id: string;
  grade(input: ScoreInput, rules: RuleOutcome): Promise<JudgeGrades>;
}

/**
 * Version of the rules and weights: part of every cache key, so a change to any rule,
 * threshold or lexicon must bump it (cached results then expire naturally).
 */
export const RULES_VERSION = 'rules-1';

/** Share of a judged dimension that comes from the judge; the rest is the rule score. */
const JUDGE_SHARE = 0.5;
/** A judge may also grade structure, but measurable layout dominates it. */
const STRUCTURE_JUDGE_SHARE = 0.3;
const MAX_SIGNALS = 12;

const round1 = (n: number) => Math.round(n * 10) / 10;

export function overallOf(breakdown: Breakdown): number {
  let sum = 0;
  for (const d of Object.keys(DIMENSION_WEIGHTS) as Dimension[]) sum += DIMENSION_WEIGHTS[d] * breakdown[d];
  return round1(clamp(sum));
}

function verdictOf(overall: number, signals: Signal[]): string {
  const band =
    overall >= 80 ? 'Strong post' : overall >= 65 ? 'Good post' : overall >= 50 ? 'Fair post' : 'Weak post';
  const lead = `${band} (${Math.round(overall)}/100)`;
  const strength = signals.find((s) => s.impact === 'positive');
  const fix = signals.find((s) => s.impact === 'negative');
  if (fix && strength)
    return `${lead}: ${strength.label.toLowerCase()} helps; fix first: ${fix.label.toLowerCase()}.`;
  if (fix) return `${lead}; fix first: ${fix.label.toLowerCase()}.`;
  if (strength) return `${lead}: ${strength.label.toLowerCase()} carries it.`;
  return `${lead}.`;
}

/** Ranked: heavier first, problems before strengths at equal weight, rules before judge notes. */
function rank(signals: Signal[]): Signal[] {
  return signals
    .map((s, i) => ({ s, i }))
    .sort(
      (a, b) =>
        b.s.weight - a.s.weight ||
        (a.s.impact === b.s.impact ? 0 : a.s.impact === 'negative' ? -1 : 1) ||
        (a.s.rule ? 0 : 1) - (b.s.rule ? 0 : 1) ||
        a.i - b.i,
    )
    .map(({ s }) => s)
    .slice(0, MAX_SIGNALS);
}

export function mergeScore(rules: RuleOutcome, grades: JudgeGrades): ScoreResult {
  const breakdown = { ...rules.scores };
  for (const d of ['hook', 'specificity', 'voice', 'engagement'] as const) {
    breakdown[d] = JUDGE_SHARE * grades.scores[d] + (1 - JUDGE_SHARE) * rules.scores[d];
  }
  if (grades.scores.structure !== undefined) {
    breakdown.structure =
      STRUCTURE_JUDGE_SHARE * grades.scores.structure + (1 - STRUCTURE_JUDGE_SHARE) * rules.scores.structure;
  }
  for (const [d, cap] of Object.entries(rules.caps) as [Dimension, { max: number }][]) {
    breakdown[d] = Math.min(breakdown[d], cap.max);
  }
  for (const d of Object.keys(breakdown) as Dimension[]) breakdown[d] = Math.round(clamp(breakdown[d]));
  const signals = rank([
    ...rules.hits.map(({ points: _points, ...signal }) => signal),
    ...grades.signals.map(({ rule: _rule, ...signal }) => signal),
  ]);
  const overall = overallOf(breakdown);
  return {
    schema: SCORE_SCHEMA_VERSION,
    overall,
    breakdown,
    verdict: verdictOf(overall, signals),
    signals,
    hookArchetype: rules.archetype,
    hookArchetypeNote: rules.archetypeNote,
    formatMultiplier: rules.format.multiplier,
    formatNote: rules.format.note,
  };
}

/** The offline engine end to end, synchronously (used by the heuristic judge, eval and bench). */
export function scoreHeuristically(input: ScoreInput): ScoreResult {
  const rules = runRules(input);
  return mergeScore(rules, gradeHeuristically(rules));
}

export async function scorePost(input: ScoreInput, judge: Judge): Promise<ScoreResult> {
  const rules = runRules(input);
  return mergeScore(rules, await judge.grade(input, rules));
}

export const heuristicJudge: Judge = {
  id: 'heuristic',
  grade: async (_input, rules) => gradeHeuristically(rules),
};

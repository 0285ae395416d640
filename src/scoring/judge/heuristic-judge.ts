import { clamp } from '../rules/rule-kit.ts';
import type { RuleOutcome } from '../rules/rules.ts';
import { splitPieces } from '../text/text-scan.ts';
import type { Judge, JudgeGrades } from './judge.ts';

/**
 * The offline judge: grades the subjective dimensions (hook strength, specificity, voice,
 * engagement pull) from continuous text statistics, deterministically. Where the rules fire
 * on thresholds, the judge grades by degree, so two posts that trip the same rules still
 * rank by how much of each quality they carry. It adds no signals: every reason it could
 * give is already a named rule.
 */

const STARTS_WITH_NOISE = /^(?:#|https?:|www\.|\p{Extended_Pictographic})/u;
const HAS_SPECIFIC = /\d|(?<=\s)\p{Lu}[\p{L}\p{N}]+/u;
const FIRST_PERSON = /(?<![\p{L}])(?:I|I['’](?:m|ve|d|ll)|[Mm]y)(?![\p{L}])/u;

export function gradeHeuristically(rules: RuleOutcome): JudgeGrades {
  const f = rules.features;
  const per100 = (n: number) => (f.words === 0 ? 0 : (100 * n) / f.words);

  const hookWords = f.hook ? splitPieces(f.hook) : 0;
  // Only the extremes are graded: a fragment, or an opening sentence too long to scan.
  let hook = 55;
  if (hookWords < 3) hook -= 10;
  else if (hookWords > 25) hook -= 10;
  if (HAS_SPECIFIC.test(f.hook)) hook += 8;
  if (FIRST_PERSON.test(f.hook)) hook += 6;
  if (f.hook.endsWith('?')) hook -= 4;
  if (STARTS_WITH_NOISE.test(f.hook)) hook -= 10;

  const density = per100(f.numbers + f.properNouns + f.mentions);
  const specificity =
    35 + 55 * (1 - Math.exp(-density / 5)) - 3 * per100(f.vague) - 4 * Math.min(f.jargon, 5);

  let voice = 55 + 30 * Math.min(1, per100(f.firstPerson) / 4);
  voice -= 8 * Math.min(f.aiTells, 4) + 3 * Math.min(f.jargon, 5);
  if (f.emDashes >= 3) voice -= 5;
  if (f.exclamations >= 1 && f.exclamations <= 3) voice += 3;
  if (f.emoji >= 1 && f.emoji <= 3) voice += 2;

  let engagement = 45;
  if (f.personalNews > 0) engagement += 20;
  if (f.callsToComment > 0) engagement += 8;
  if (f.endsWithQuestion) engagement += 4;
  engagement -= 4 * Math.max(0, f.questions - 2);
  if (f.bait > 0) engagement -= 10;
  if (f.mentions > 0) engagement += 6;

  return {
    scores: {
      hook: clamp(hook),
      specificity: clamp(specificity),
      voice: clamp(voice),
      engagement: clamp(engagement),
    },
    signals: [],
    by: 'heuristic',
  };
}

export const heuristicJudge: Judge = {
  id: 'heuristic',
  grade: async (_input, rules) => gradeHeuristically(rules),
};

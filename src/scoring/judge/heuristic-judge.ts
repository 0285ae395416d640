import { type Concept, conceptOfRule } from '../concepts.ts';
import { clamp } from '../rules/rule-kit.ts';
import type { RuleOutcome } from '../rules/rules.ts';
import { splitPieces } from '../text/text-scan.ts';
import type { Judge, JudgedDimension, JudgeGrades } from './judge.ts';

/**
 * The offline judge: grades the subjective dimensions (hook strength, specificity, voice,
 * engagement pull) from continuous text statistics, deterministically. Where the rules fire
 * on thresholds, the judge grades by degree, so two posts that trip the same rules still
 * rank by how much of each quality they carry. It adds no signals of its own; what moved each
 * grade is told by `gradeTerms` (below), which the judged dimensions' signals name.
 */

const STARTS_WITH_NOISE = /^(?:#|https?:|www\.|\p{Extended_Pictographic})/u;
const HAS_SPECIFIC = /\d|(?<=\s)\p{Lu}[\p{L}\p{N}]+/u;
const FIRST_PERSON = /(?<![\p{L}])(?:I|I['’](?:m|ve|d|ll)|[Mm]y)(?![\p{L}])/u;

/** Where each dimension's grade starts before its terms (gradeTerms) move it. */
export const GRADE_BASE: Record<JudgedDimension, number> = {
  hook: 55,
  specificity: 35,
  voice: 55,
  engagement: 45,
};

export function gradeHeuristically(rules: RuleOutcome): JudgeGrades {
  const f = rules.features;
  const per100 = (n: number) => (f.words === 0 ? 0 : (100 * n) / f.words);

  const hookWords = f.hook ? splitPieces(f.hook) : 0;
  // Only the extremes are graded: a fragment, or an opening sentence too long to scan.
  let hook = GRADE_BASE.hook;
  if (hookWords < 3) hook -= 10;
  else if (hookWords > 25) hook -= 10;
  if (HAS_SPECIFIC.test(f.hook)) hook += 8;
  if (FIRST_PERSON.test(f.hook)) hook += 6;
  if (f.hook.endsWith('?')) hook -= 4;
  if (STARTS_WITH_NOISE.test(f.hook)) hook -= 10;

  const density = per100(f.numbers + f.properNouns + f.mentions);
  const specificity =
    GRADE_BASE.specificity +
    55 * (1 - Math.exp(-density / 5)) -
    3 * per100(f.vague) -
    4 * Math.min(f.jargon, 5);

  let voice = GRADE_BASE.voice + 30 * Math.min(1, per100(f.firstPerson) / 4);
  voice -= 8 * Math.min(f.aiTells, 4) + 3 * Math.min(f.jargon, 5);
  if (f.emDashes >= 3) voice -= 5;
  if (f.exclamations >= 1 && f.exclamations <= 3) voice += 3;
  if (f.emoji >= 1 && f.emoji <= 3) voice += 2;

  let engagement = GRADE_BASE.engagement;
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

/**
 * One thing in the post that moved a heuristic grade: what it is (a noun phrase a sentence can
 * name), the points it moved the grade by, the rules whose spans mark it in the post, and, for a
 * thing another concept speaks about (the AI tells lower the voice grade, but they are generic
 * text), that concept: where its signal is shown, it is the one that says so.
 */
export interface GradeTerm {
  says: string;
  points: number;
  spans: readonly string[];
  owner?: Concept;
}

/**
 * The terms of one dimension's grade, in the order gradeHeuristically adds them: the grade is
 * GRADE_BASE plus their points, clamped (test/intelligence/judge-terms.test.ts holds the two
 * equal on real posts). Only terms that moved the grade are listed. Made only when a judged
 * dimension's signal is shown, so the scorer's hot path does not pay for it.
 */
export function gradeTerms(rules: RuleOutcome, dimension: JudgedDimension): GradeTerm[] {
  const f = rules.features;
  const per100 = (n: number) => (f.words === 0 ? 0 : (100 * n) / f.words);
  const out: GradeTerm[] = [];
  const add = (points: number, says: string, spans: readonly string[], owned?: boolean) => {
    if (points === 0) return;
    out.push(owned ? { says, points, spans, owner: conceptOfRule(spans[0]!) } : { says, points, spans });
  };
  if (dimension === 'hook') {
    const hookWords = f.hook ? splitPieces(f.hook) : 0;
    const hook = ['judge.hook'];
    if (hookWords < 3)
      add(
        -10,
        hookWords === 0 ? 'holding no words' : hookWords === 1 ? 'its one word' : 'its two words',
        hook,
      );
    else if (hookWords > 25) add(-10, `its ${hookWords} words`, hook);
    if (HAS_SPECIFIC.test(f.hook)) add(8, 'the number or name in it', hook);
    if (FIRST_PERSON.test(f.hook)) add(6, 'its first person', hook);
    if (f.hook.endsWith('?')) add(-4, 'ending on a question', hook);
    if (STARTS_WITH_NOISE.test(f.hook)) add(-10, 'starting with a link, a hashtag or an emoji', hook);
  } else if (dimension === 'specificity') {
    const density = per100(f.numbers + f.properNouns + f.mentions);
    add(55 * (1 - Math.exp(-density / 5)), 'the figures, names and tagged people', [
      'text.numbers',
      'specificity.names',
    ]);
    add(-3 * per100(f.vague), f.vague === 1 ? 'the vague word' : 'the vague words', ['specificity.vague']);
    add(-4 * Math.min(f.jargon, 5), 'the jargon', ['specificity.jargon']);
  } else if (dimension === 'voice') {
    add(30 * Math.min(1, per100(f.firstPerson) / 4), 'writing in the first person', ['voice.first_person']);
    add(-8 * Math.min(f.aiTells, 4), 'the machine-sounding phrases', ['voice.ai_tells'], true);
    add(-3 * Math.min(f.jargon, 5), 'the jargon', ['specificity.jargon'], true);
    if (f.emDashes >= 3) add(-5, 'the stack of em dashes', ['voice.em_dash_stack'], true);
    if (f.exclamations >= 1 && f.exclamations <= 3)
      add(3, f.exclamations === 1 ? 'the exclamation mark' : 'the exclamation marks', ['text.exclamations']);
    if (f.emoji >= 1 && f.emoji <= 3) add(2, 'the emoji', []);
  } else {
    if (f.personalNews > 0) add(20, 'the personal news', ['engagement.personal_story']);
    if (f.callsToComment > 0) add(8, 'the call to comment', ['engagement.call_to_comment']);
    if (f.endsWithQuestion) add(4, 'the closing question', ['engagement.closing_question']);
    add(-4 * Math.max(0, f.questions - 2), `asking ${f.questions} questions`, [
      'engagement.question_overload',
    ]);
    if (f.bait > 0) add(-10, 'the engagement bait', ['engagement.bait'], true);
    if (f.mentions > 0)
      add(6, f.mentions === 1 ? 'the tagged person' : 'the tagged people', ['mentions.tagged']);
  }
  return out;
}

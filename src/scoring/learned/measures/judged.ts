import type { Concept } from '../../concepts.ts';
import type { JudgedDimension } from '../../judge/judge.ts';

/** The judge's grades as features: one row each, with how a writer is told about it. */
export interface JudgedRow {
  dimension: JudgedDimension;
  concept: Concept;
  label: string;
  /** The graded quality inside a sentence ("rates the opening at 62/100"). */
  noun: string;
  /** What the offline heuristic rewards (heuristic-judge.ts), so its grade can be acted on. */
  hint: string;
  /**
   * What the post lacks when the heuristic grade is low and nothing in it lowered the grade: true
   * exactly then, since each dimension's base is below the typical grade (a clause, no full stop).
   */
  missing: string;
  /** What to do when the grade lifts the score, and when it lowers it (imperative, no full stop). */
  keep: string;
  raise: string;
}

export const JUDGED_ROWS: readonly JudgedRow[] = [
  {
    dimension: 'hook',
    concept: 'opening',
    label: 'Opening',
    noun: 'opening',
    hint: 'it rates an opening of 3-25 words with a number, a name or a first-person moment higher',
    missing: 'the opening has no number, name or first-person moment',
    keep: 'keep the opening as it is',
    raise: 'open in 3-25 words with a number, a name or a moment of your own',
  },
  {
    dimension: 'specificity',
    concept: 'specifics',
    label: 'Specificity',
    noun: 'specificity',
    hint: 'it rates numbers, names and tagged people higher, and vague words and jargon lower',
    missing: 'the post names few figures, names or people for its length',
    keep: 'keep the specifics',
    raise: 'name the figure, the person or the product you mean',
  },
  {
    dimension: 'voice',
    concept: 'voice',
    label: 'Voice',
    noun: 'voice',
    hint: 'it rates writing in the first person higher, and stock phrases and jargon lower',
    missing: 'little of the post is in the first person',
    keep: 'keep your own voice',
    raise: 'tell it in your own words, as what you did or saw',
  },
  {
    dimension: 'engagement',
    concept: 'questions',
    label: 'Pull to respond',
    noun: 'pull to respond',
    hint: 'it rates personal news, a call to comment, a closing question and tagged people higher',
    missing: 'the post has no personal news, call to comment, closing question or tagged person',
    keep: 'keep what readers can answer',
    raise: 'give readers one real question about their own experience',
  },
];

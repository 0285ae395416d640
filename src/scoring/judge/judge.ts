import type { Concept } from '../concepts.ts';
import type { RuleOutcome } from '../rules/rules.ts';
import type { ScoreInput, Signal } from '../types.ts';

/**
 * The judge interface: grades what rules cannot (hook strength, specificity, voice,
 * engagement pull). Implementations: the offline heuristic (heuristic-judge.ts) and the
 * model judge (model/engine.ts). Its grades are features of the learned model
 * (learned/features.ts), never the score itself.
 */

export type JudgedDimension = 'hook' | 'specificity' | 'voice' | 'engagement';

/**
 * A judge's own observation: a signal without a rule or spans, and the concept the judge says it
 * speaks for, if it says (the scorer decides: judge/note-rules.ts).
 */
export type JudgeNote = Omit<Signal, 'concept' | 'spans' | 'rule'> & { concept?: Concept };

export interface JudgeGrades {
  scores: Record<JudgedDimension, number> & { structure?: number };
  /** The judge's own observations (no `rule`). */
  signals: JudgeNote[];
  /** Who graded: the offline text heuristic, or a language model (the default). */
  by?: 'heuristic' | 'model';
}

export interface Judge {
  /** `heuristic` or `<provider>:<model>`; part of every cache key. */
  readonly id: string;
  grade(input: ScoreInput, rules: RuleOutcome): Promise<JudgeGrades>;
}

import type { Dimension, HookArchetype } from '../../domain/enums.ts';
import { conceptOfRule } from '../concepts.ts';
import type { TextFeatures } from '../text/text-features.ts';
import type { ScoreInput, Signal } from '../types.ts';
import type { FormatAssessment } from './format.ts';
import type { Rubric } from './rubrics.ts';

/** Shared pieces of the rules layer: what a rule sees and how it reports. */

export interface RuleHit extends Signal {
  rule: string;
  /** What the rule said, in its two parts (its `detail` is their sentence). */
  said: Said;
  /** How far this rule moves its dimension's rule score. */
  points: number;
}

export interface Cap {
  max: number;
  rule: string;
}

/** What every rule sees. */
export interface RuleContext {
  f: TextFeatures;
  input: ScoreInput;
  rubric: Rubric;
  archetype: HookArchetype;
  format: FormatAssessment;
  hasLink: boolean;
  hashtags: number;
  /**
   * The post's length counted the platform's way (a URL may count a fixed weight) on the text as
   * sent, as publishing refuses it and the editor counts it: not on the rules' normalised text,
   * which drops the white space around the post and before line breaks.
   */
  counted: number;
  /** Occurrences per 100 words. */
  per100: (n: number) => number;
}

export const clamp = (n: number, lo = 0, hi = 100) => Math.max(lo, Math.min(hi, n));

/**
 * What a rule says: what it found, with its evidence (no full stop), and what to do about it
 * (an imperative clause, no full stop). Both are required, so no rule can speak without saying
 * what to do (issue 32: the one thing that matters, its evidence, and what to do).
 */
export interface Said {
  finding: string;
  act: string;
}

/**
 * The sentence a writer reads: "<finding>; <act>.", or "<finding> <Act>." after a finding that
 * ends on a quoted sentence ("The post opens with a question: "Why...?" Open with...").
 */
export function sentenceOf({ finding, act }: Said): string {
  if (/[.!?…]["”’)]?$/u.test(finding)) return `${finding} ${actSentence(act)}`;
  return `${finding}; ${act}.`;
}

/** An act standing as a sentence of its own: "Keep the format." */
export const actSentence = (act: string): string => `${act.charAt(0).toUpperCase()}${act.slice(1)}.`;

/** Builds a hit; weight (1-5) follows the size of the effect unless the rule says otherwise. */
export function hit(
  rule: string,
  dimension: Dimension,
  points: number,
  label: string,
  said: Said,
  weight?: number,
): RuleHit {
  const detail = sentenceOf(said);
  return {
    rule,
    dimension,
    concept: conceptOfRule(rule),
    points,
    impact: points >= 0 ? 'positive' : 'negative',
    weight: weight ?? clamp(Math.round(Math.abs(points) / 4), 1, 5),
    label,
    detail,
    said,
    // Found for the signals shown, not for every hit (learned/signal-spans.ts).
    spans: [],
  };
}

const AND_LIST = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' });

/** Phrases found in the post, quoted and joined as a reader would write them: "a", "b" and "c". */
export function quotedList(phrases: readonly string[]): string {
  // A serial comma reads oddly between quotes: "a", "b" and "c".
  return AND_LIST.format(phrases.map((p) => `"${p.trim()}"`)).replace(/", and "/, '" and "');
}

import type { DraftCheck } from '../domain/enums.ts';
import type { Judge } from './judge/judge.ts';
import type { GenerateInput, PlanInput, ScoreInput, ScoreResult, VoiceProfile } from './types.ts';
import type { GenerateContext } from './writers/generate-offline.ts';
import type { PlanOutline } from './writers/plan-offline.ts';
import type { OfflineRewrite } from './writers/rewrite-offline.ts';

/**
 * The provider interface every intelligence operation goes through. Two implementations:
 * the offline heuristic engine (engine.ts, default, deterministic) and the model engine
 * (model/engine.ts: openai, anthropic, openai-compatible through the Vercel AI SDK). Scoring,
 * caching, quota and re-scoring live in the service, identical for both. Kept apart from
 * both implementations so neither imports the other.
 */
export interface Engine {
  /** `heuristic` or `<provider>:<model>`; part of every cache key. */
  readonly id: string;
  readonly judge: Judge;
  rewrite(input: ScoreInput, before: ScoreResult): Promise<OfflineRewrite>;
  /** Up to `input.count` drafts, unscored, each saying which engine wrote it. */
  generate(input: GenerateInput, context: GenerateContext): Promise<WrittenDraft[]>;
  /** The outlines, and which engine planned them. */
  plan(
    input: PlanInput,
    context: GenerateContext,
  ): Promise<{ outlines: PlanOutline[]; writtenBy: WrittenBy }>;
  distillVoice(samples: string[]): Promise<VoiceProfile>;
}

/** Which engine wrote a draft, and why the offline engine did when a model is configured. */
export interface WrittenBy {
  engine: 'model' | 'offline';
  /** The check the model's draft failed twice, when the offline engine stands in for it. */
  failedCheck: DraftCheck | null;
  /** One plain sentence for the writer. */
  note: string;
}

export interface WrittenDraft {
  text: string;
  writtenBy: WrittenBy;
}

export const BY_MODEL: WrittenBy = {
  engine: 'model',
  failedCheck: null,
  note: 'Written by the language model.',
};

export const OFFLINE_ONLY: WrittenBy = {
  engine: 'offline',
  failedCheck: null,
  note: "Written by the offline engine from the brief's own words; no language model is configured.",
};

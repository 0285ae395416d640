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
  /** Up to `input.count` drafts, unscored. */
  generate(input: GenerateInput, context: GenerateContext): Promise<string[]>;
  plan(input: PlanInput, context: GenerateContext): Promise<PlanOutline[]>;
  distillVoice(samples: string[]): Promise<VoiceProfile>;
}

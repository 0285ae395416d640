import { type GenerateContext, generateOffline } from './generate-offline.ts';
import type { ModelClient } from './model/client.ts';
import { createModelEngine } from './model/engine.ts';
import { type PlanOutline, planOffline } from './plan-offline.ts';
import { type OfflineRewrite, rewriteOffline } from './rewrite-offline.ts';
import { heuristicJudge, type Judge } from './scorer.ts';
import type { GenerateInput, PlanInput, ScoreInput, ScoreResult, VoiceProfile } from './types.ts';
import { distillVoiceOffline } from './voice-offline.ts';

/**
 * The provider interface every intelligence operation goes through. Two implementations:
 * the offline heuristic engine (default, deterministic) and the model engine (openai,
 * anthropic, openai-compatible through the Vercel AI SDK). Scoring, caching, quota and
 * re-scoring live in the service, identical for both.
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

export const heuristicEngine: Engine = {
  id: 'heuristic',
  judge: heuristicJudge,
  rewrite: async (input) => rewriteOffline(input),
  generate: async (input, context) => generateOffline(input, context),
  plan: async (input, { brand }) => planOffline(input, brand),
  distillVoice: async (samples) => distillVoiceOffline(samples),
};

export function createEngine(model: ModelClient | null): Engine {
  return model ? createModelEngine(model) : heuristicEngine;
}

import type { Config } from '../config/config.ts';
import { type Engine, OFFLINE_ONLY } from './engine-interface.ts';
import { heuristicJudge } from './judge/heuristic-judge.ts';
import { PLANNED_OFFLINE } from './model/plan-gate.ts';
import { offlineMeasure } from './scorer.ts';
import { generateOffline } from './writers/generate-offline.ts';
import { planOffline } from './writers/plan-offline.ts';
import { rewriteOffline } from './writers/rewrite-offline.ts';
import { distillVoiceOffline } from './writers/voice-offline.ts';

export type { Engine } from './engine-interface.ts';

/** The offline engine: every operation deterministic, with no model configured. */
export const heuristicEngine: Engine = {
  id: 'heuristic',
  judge: heuristicJudge,
  rewrite: async (input) => rewriteOffline(input, offlineMeasure(input)),
  generate: async (input, context) =>
    generateOffline(input, context).map((text) => ({ text, writtenBy: OFFLINE_ONLY })),
  plan: async (input, { brand }) => ({ outlines: planOffline(input, brand), writtenBy: PLANNED_OFFLINE }),
  distillVoice: async (samples) => distillVoiceOffline(samples),
};

/**
 * The configured engine. The model engine and the AI SDK behind it are loaded only when a model
 * provider is configured: about 15 MB of resident memory the heuristic default never needs. A
 * provider missing its model or key still fails here, at startup.
 */
export async function openEngine(config: Config): Promise<Engine> {
  if (config.LLM_PROVIDER === 'heuristic') return heuristicEngine;
  const [{ createModelClient }, { createModelEngine }] = await Promise.all([
    import('./model/client.ts'),
    import('./model/engine.ts'),
  ]);
  const model = createModelClient(config);
  return model ? createModelEngine(model) : heuristicEngine;
}

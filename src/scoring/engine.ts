import type { Engine } from './engine-interface.ts';
import { generateOffline } from './generate-offline.ts';
import { heuristicJudge } from './heuristic-judge.ts';
import type { ModelClient } from './model/client.ts';
import { createModelEngine } from './model/engine.ts';
import { planOffline } from './plan-offline.ts';
import { rewriteOffline } from './rewrite-offline.ts';
import { offlineMeasure } from './scorer.ts';
import { distillVoiceOffline } from './voice-offline.ts';

export type { Engine } from './engine-interface.ts';

/** The offline engine: every operation deterministic, with no model configured. */
export const heuristicEngine: Engine = {
  id: 'heuristic',
  judge: heuristicJudge,
  rewrite: async (input) => rewriteOffline(input, offlineMeasure(input)),
  generate: async (input, context) => generateOffline(input, context),
  plan: async (input, { brand }) => planOffline(input, brand),
  distillVoice: async (samples) => distillVoiceOffline(samples),
};

export function createEngine(model: ModelClient | null): Engine {
  return model ? createModelEngine(model) : heuristicEngine;
}

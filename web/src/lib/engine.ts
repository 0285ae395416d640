/**
 * Which engine made a result, said plainly: score, rewrite, generate and plan answers carry
 * `engine {id, offline, note}` and /v1/meta the same in its capabilities. Offline (no language
 * model configured), the console says so next to the result and links to the page on
 * configuring a model, so nobody mistakes offline templates for a model's writing.
 */
export interface Engine {
  id: string;
  offline: boolean;
  note: string;
}

export type EngineWork = 'score' | 'rewrite' | 'candidates' | 'plan';

/** What the offline engine did for each kind of result (the API's note says the same for all). */
const OFFLINE_WORK: Record<EngineWork, string> = {
  score: 'This score comes from the rules and the learned scoring model; no language model read the post.',
  rewrite: "This rewrite is a set of deterministic edits, not a language model's rewrite.",
  candidates: "These drafts are templates filled from your brief, not a language model's writing.",
  plan: 'This outline is built from templates, not by a language model.',
};

export interface EngineLine {
  offline: boolean;
  text: string;
}

/** The sentence shown with a result; null when the answer did not say (an older API). */
export function engineLine(engine: Engine | null | undefined, work: EngineWork): EngineLine | null {
  if (!engine) return null;
  if (engine.offline)
    return { offline: true, text: `No language model is configured. ${OFFLINE_WORK[work]}` };
  return { offline: false, text: `Made with the language model ${engine.id}.` };
}

/** /v1/meta's capabilities as an engine: what will answer, before any result arrives. */
export function engineOfMeta(
  capabilities:
    | { scoringEngine: string; model: string | null; offline: boolean; engineNote: string }
    | undefined,
): Engine | null {
  if (!capabilities) return null;
  const id = capabilities.offline
    ? 'heuristic'
    : capabilities.model
      ? `${capabilities.scoringEngine}:${capabilities.model}`
      : capabilities.scoringEngine;
  return { id, offline: capabilities.offline, note: capabilities.engineNote };
}

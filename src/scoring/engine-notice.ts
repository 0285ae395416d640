/**
 * What every intelligence response and /v1/meta say about the engine that produced them, so
 * a caller never mistakes the offline templates for a language model's writing. The engine id
 * is `heuristic` offline and `<provider>:<model>` otherwise (engine-interface.ts).
 */

export interface EngineNotice {
  /** `heuristic` or `<provider>:<model>`. */
  id: string;
  /** True when no language model is configured: everything runs on the offline engine. */
  offline: boolean;
  /** One plain sentence or two, for people reading the response. */
  note: string;
}

export const OFFLINE_NOTE =
  'Offline engine: no language model is configured. Scores come from the rules and the learned score.v2 model; rewrite, generate and plan use deterministic offline edits and templates. Set LLM_PROVIDER (openai, anthropic, or openai-compatible for a local server such as Ollama) to use a model; see docs/intelligence.md.';

const notices = new Map<string, EngineNotice>();

/** The notice for an engine id, built once per id (responses share the same object). */
export function engineNotice(engineId: string): EngineNotice {
  let notice = notices.get(engineId);
  if (!notice) {
    const offline = engineId === 'heuristic';
    notice = {
      id: engineId,
      offline,
      note: offline
        ? OFFLINE_NOTE
        : `Language model ${engineId.slice(engineId.indexOf(':') + 1)} (${engineId.slice(0, engineId.indexOf(':'))}) grades hook, specificity, voice and engagement as features of the learned score.v2 model, and writes rewrites, drafts and plans.`,
    };
    notices.set(engineId, notice);
  }
  return notice;
}

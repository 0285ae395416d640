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
  candidates: "These drafts are put together from your brief's own words, not written by a language model.",
  plan: "This outline is put together from your brief's own words, not by a language model.",
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

/** Who wrote a generated draft (the API's `writtenBy`). */
export interface WrittenBy {
  engine: 'model' | 'offline';
  failedCheck: string | null;
  note: string;
}

/** The checks a model's draft must pass, in plain words ("the model's draft ..."). */
const FAILED: Record<string, string> = {
  numbers: 'left out a number from your brief',
  names: 'left out a name from your brief',
  invented: 'added a number or link your brief does not give',
  labels: 'repeated a label or instruction from your brief',
  ai_tells: 'used wording that reads as machine-written',
  bait: 'added engagement bait the feed demotes',
  blanks: 'left a blank where your brief gives the fact',
  length: "ran over the platform's length limit",
  structure: 'told your brief the same way as another draft',
};

const and = (xs: string[]) =>
  xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`;
const drafts = (positions: number[]) =>
  `${positions.length === 1 ? 'draft' : 'drafts'} ${and(positions.map(String))}`;

/**
 * One plain line saying who wrote a set of generated drafts: the language model, or the offline
 * engine standing in for a model draft that failed the checks, with the check in plain words.
 * Null when no model is configured (the offline notice says so) or the answer did not say.
 */
export function draftsLine(
  engine: Engine | null | undefined,
  written: (WrittenBy | undefined)[],
): string | null {
  if (!engine || engine.offline || written.length === 0 || written.some((w) => !w)) return null;
  const by = written as WrittenBy[];
  const model = by.flatMap((w, i) => (w.engine === 'model' ? [i + 1] : []));
  const offline = by.flatMap((w, i) => (w.engine === 'offline' ? [i + 1] : []));
  if (offline.length === 0)
    return by.length === 1
      ? `Written by the language model ${engine.id}.`
      : `All ${by.length} drafts were written by the language model ${engine.id}.`;
  const checks = [
    ...new Set(by.flatMap((w) => (w.failedCheck && FAILED[w.failedCheck] ? [FAILED[w.failedCheck]!] : []))),
  ];
  const why = checks.length
    ? ` because the language model's ${offline.length === 1 ? 'draft' : 'drafts'} ${and(checks)}, even after one retry`
    : '';
  if (model.length === 0)
    return `${by.length === 1 ? 'This draft was' : 'These drafts were'} written by the offline engine${why}.`;
  return `The language model ${engine.id} wrote ${drafts(model)}; the offline engine wrote ${drafts(offline)}${why}.`;
}

/**
 * One plain line saying who planned an outline (the API's `writtenBy` on the plan): the language
 * model, or the offline engine standing in for a model plan that failed the checks, in the API's
 * own sentence (it names the check and the fact, "left out a number the brief gives (9)"). Null
 * when no model is configured (the offline notice says so) or the answer did not say.
 */
export function planLine(engine: Engine | null | undefined, written: WrittenBy | undefined): string | null {
  if (!engine || engine.offline || !written) return null;
  return written.engine === 'model' ? `Planned by the language model ${engine.id}.` : written.note;
}

import type { DraftCheck } from '../../domain/enums.ts';
import type { WrittenBy } from '../engine-interface.ts';
import { type DraftFailure, type DraftGate, draftFailures } from './draft-gate.ts';

/**
 * The draft gate (draft-gate.ts) on a model's plan (issue 34 item 4): a plan is outlines, not
 * posts, so the brief's numbers and names must each appear somewhere in it (an item per point
 * may hold one figure each), while every item on its own repeats no label or instruction of the
 * brief, adds no number or link, carries no AI tell and leaves no blank where the brief gives the
 * fact. The requested count ("a 5-post series") is no figure to keep.
 */

export interface OutlineText {
  hook: string;
  angle: string;
}

const ACROSS: ReadonlySet<DraftCheck> = new Set(['numbers', 'names']);
const EACH: ReadonlySet<DraftCheck> = new Set(['labels', 'invented', 'ai_tells', 'blanks']);

/** Numbers that count the posts asked for: "5 posts", "a 5-post series", "3 ideas". */
const COUNT = /(?<![\p{L}\d])(\d+)[\s-]*(?:posts?|slots?|items?|ideas?|drafts?|outlines?)\b/giu;
export const countNumbers = (brief: string) => [...brief.matchAll(COUNT)].map((m) => m[1]!);

/** What the plan fails, each problem naming its item for the retry; empty when it passes. */
export function planFailures(gate: DraftGate, items: readonly OutlineText[]): DraftFailure[] {
  const text = (i: OutlineText) => `${i.hook}\n\n${i.angle}`;
  const across = draftFailures(gate, items.map(text).join('\n\n'), ACROSS, countNumbers(gate.brief)).map(
    (f) => ({ ...f, problem: f.problem.replace(/^it /, 'the plan ') }),
  );
  const each = items.flatMap((item, i) =>
    draftFailures(gate, text(item), EACH).map((f) => ({
      ...f,
      problem: `item ${i + 1}: ${f.problem.replace('write the post itself', 'write the outline itself')}`,
    })),
  );
  return [...across, ...each];
}

export const PLANNED_BY_MODEL: WrittenBy = {
  engine: 'model',
  failedCheck: null,
  note: 'Planned by the language model.',
};

export const PLANNED_OFFLINE: WrittenBy = {
  engine: 'offline',
  failedCheck: null,
  note: "Planned by the offline engine from the brief's own words; no language model is configured.",
};

export function planFellBack(failed: DraftFailure): WrittenBy {
  return {
    engine: 'offline',
    failedCheck: failed.check,
    note: `Planned by the offline engine: the language model's plan ${failed.plain}, even after one retry.`,
  };
}

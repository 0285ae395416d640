import { BY_MODEL, type WrittenBy, type WrittenDraft } from '../engine-interface.ts';
import type { DraftFailure } from './draft-gate.ts';

/**
 * A model draft that still fails its checks after the one retry is never shown: the offline
 * engine's next draft stands in for it, and says which check the model's draft failed, in plain
 * words. Drafts that pass stay the model's. When the offline engine has no draft left (news is
 * told at most two ways), the failing draft is dropped rather than shown.
 */
export function standInForFailures(
  drafts: string[],
  failures: DraftFailure[][],
  offline: () => string[],
): WrittenDraft[] {
  let spare: string[] | null = null;
  const out: WrittenDraft[] = [];
  for (const [i, text] of drafts.entries()) {
    const failed = failures[i]?.[0];
    if (!failed) {
      out.push({ text, writtenBy: BY_MODEL });
      continue;
    }
    spare ??= offline();
    const next = spare.find((s) => !out.some((o) => o.text === s));
    if (next !== undefined) out.push({ text: next, writtenBy: fellBack(failed) });
  }
  return out;
}

export function fellBack(failed: DraftFailure): WrittenBy {
  return {
    engine: 'offline',
    failedCheck: failed.check,
    note: `Written by the offline engine: the language model's draft ${failed.plain}, even after one retry.`,
  };
}

import { inventedFacts } from '../text/facts.ts';
import { cleanBrief } from './brief-clean.ts';

/**
 * What a set of drafts from one brief must hold, whichever engine wrote them (issue 22): no
 * draft repeats the brief's instruction or label, every draft keeps at least 80% of the brief's
 * numbers and named specifics, and no two drafts share 70% or more of the words they add to the
 * brief (their structure: hook, framing, blanks, closing), so they differ in shape, not only in
 * their first line. The brief's own words are set aside because every draft must carry them: on
 * a long brief they would make any two faithful drafts look alike. The model engine asks for a retry on a failure; the
 * offline engine is tested against the same checks.
 */

export const MIN_SPECIFICS_KEPT = 0.8;
export const MAX_WORD_OVERLAP = 0.7;

const lower = (s: string) => s.toLowerCase().replace(/[’]/g, "'");

/** The brief's numbers, links, @mentions and names, once each. */
export function specificsOf(brief: string): string[] {
  return [...new Set(inventedFacts('', cleanBrief(brief).text || brief))];
}

/** Share of the brief's specifics a draft still has (1 when the brief has none). */
export function specificsKept(brief: string, draft: string): number {
  const specifics = specificsOf(brief);
  if (!specifics.length) return 1;
  const text = lower(draft);
  return specifics.filter((s) => text.includes(lower(s))).length / specifics.length;
}

/** The instruction or label of the brief a draft repeats, if any. */
export function pastedFromBrief(brief: string, draft: string): string | null {
  const text = lower(draft);
  return cleanBrief(brief).dropped.find((d) => d.split(/\s+/).length >= 2 && text.includes(lower(d))) ?? null;
}

const wordSet = (s: string) => new Set(lower(s).match(/[\p{L}\p{N}']+/gu) ?? []);

/** Jaccard overlap of two drafts' word sets, the words of `brief` (when given) set aside. */
export function wordOverlap(a: string, b: string, brief = ''): number {
  const own = wordSet(brief);
  const x = new Set([...wordSet(a)].filter((w) => !own.has(w)));
  const y = new Set([...wordSet(b)].filter((w) => !own.has(w)));
  let both = 0;
  for (const w of x) if (y.has(w)) both++;
  const union = x.size + y.size - both;
  return union ? both / union : 1;
}

/** The first problem of a set of drafts, said for a retry; null when they pass. */
export function draftProblem(brief: string, drafts: string[]): string | null {
  for (const d of drafts) {
    const pasted = pastedFromBrief(brief, d);
    if (pasted) return `a draft repeats the brief's instruction or label "${pasted}": write the post itself`;
    if (specificsKept(brief, d) < MIN_SPECIFICS_KEPT)
      return `a draft drops the brief's numbers or names; keep them all: ${specificsOf(brief).join(', ')}`;
  }
  for (let i = 0; i < drafts.length; i++)
    for (let j = i + 1; j < drafts.length; j++)
      if (wordOverlap(drafts[i]!, drafts[j]!, brief) >= MAX_WORD_OVERLAP)
        return `drafts ${i + 1} and ${j + 1} share most of their words: give each its own structure`;
  return null;
}

import { genericPhrases } from '../rules/generic-text.ts';
import { inventedFacts } from '../text/facts.ts';
import { extractFeatures } from '../text/text-features.ts';
import type { BriefReading } from './brief-reading.ts';
import { opensWithNews } from './news-wording.ts';

/**
 * What of a brief a draft may leave out: its filler, the bait and stock lines the score marks
 * down and tells the writer to cut. The offline drafts leave it out (generate-offline.ts), and the
 * checks every engine's drafts must pass (draft-checks.ts) ask for no name that only filler held
 * ("YES" of "Comment YES if you want the template!").
 */

/**
 * A sentence of bait or stock filler: it holds a phrase the scorer's generic-text rule points at
 * ("Comment YES", "Let's dive in", "Follow me for more"), and nothing but that phrase is a fact
 * (a figure, link or name) a reader could check.
 */
export function isFiller(s: string): boolean {
  const f = extractFeatures(s);
  const phrases = genericPhrases(f);
  if (!phrases.length) return false;
  // The offsets are into the features' text.
  let rest = f.text;
  for (const p of [...phrases].reverse()) rest = rest.slice(0, p.start) + rest.slice(p.end);
  return inventedFacts('', rest, { names: true }).length === 0;
}

/**
 * The brief without its filler: a sentence the scorer flags ("Let's dive in!", "Comment YES if
 * you want the template!", "Follow me for more.") that holds no other figure, link or name is not
 * carried into the drafts, or each draft would score below the brief for what the writer is then
 * told to cut. A brief that is all filler keeps its sentences: a draft is never made of nothing.
 */
export function withoutFiller(b: BriefReading): BriefReading {
  // The sentence that says the news ("Very excited to announce my new business venture!") is the
  // news, however stock its words: the drafts tell it (docs/decisions.md, "News is told").
  const filler = b.sentences.filter((s) => s !== b.heading && isFiller(s) && !(b.news && opensWithNews(s)));
  if (!filler.length || filler.length === b.sentences.length) return b;
  const points = b.points.filter((p) => !filler.includes(p));
  const heading = points.length >= 2 ? b.heading : null;
  return {
    ...b,
    sentences: b.sentences.filter((s) => !filler.includes(s)),
    points: heading ? points : b.heading ? [] : points,
    heading,
  };
}

const TAGS_ONLY = /^(?:#[\p{L}\p{N}_]+[\s.]*){1,}$/u;

/** A line of hashtags only ("#netflix #brand.") is no sentence: its tags close the draft, as in a post. */
export function withTagLinesAtEnd(b: BriefReading): BriefReading {
  const lines = b.sentences.filter((s) => TAGS_ONLY.test(s) && s !== b.heading);
  if (!lines.length || lines.length === b.sentences.length) return b;
  const tags = lines.flatMap((l) => l.match(/#[\p{L}\p{N}_]+/gu) ?? []);
  return {
    ...b,
    sentences: b.sentences.filter((s) => !lines.includes(s)),
    points: b.points.filter((p) => !lines.includes(p)),
    hashtags: [...new Set([...b.hashtags, ...tags])],
  };
}

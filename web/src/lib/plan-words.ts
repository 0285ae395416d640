import type { Schemas } from '../api.ts';

/**
 * What a plan item's fields say, in words for the writer: its media format and its opening's
 * kind as the API names them (`multi-image`, `statement`, `none`, `other`) are enum values,
 * not English, and its evidence line, when every item carries the same one, said once.
 */
type PlanItem = Pick<Schemas['PlanItem'], 'format' | 'archetype' | 'evidence'>;

const FORMAT: Record<PlanItem['format'], string> = {
  none: 'text only',
  'single-image': 'with one image',
  'multi-image': 'with several images',
  document: 'with a document',
  video: 'with a video',
  poll: 'a poll',
  link: 'with a link',
};

/** `other` is no kind at all: nothing is said of it. */
const OPENING: Record<PlanItem['archetype'], string | null> = {
  contrarian: 'opens against a common view',
  statement: 'opens on a statement',
  question: 'opens on a question',
  'pure-number': 'opens on a number',
  story: 'opens on a story',
  other: null,
};

/** "with several images · opens on a statement": the item's format and opening, in words. */
export const itemShape = (item: PlanItem): string[] =>
  [FORMAT[item.format], OPENING[item.archetype]].filter((w): w is string => Boolean(w));

/**
 * The evidence line every item of the plan shares (the general figures, when there is no
 * history), or null when the items say different things: a shared line is said once, above them.
 */
export function sharedEvidence(items: readonly { evidence: string | null }[]): string | null {
  const first = items[0]?.evidence;
  if (items.length < 2 || !first) return null;
  return items.every((i) => i.evidence === first) ? first : null;
}

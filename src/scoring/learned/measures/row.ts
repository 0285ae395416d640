import type { Dimension } from '../../../domain/enums.ts';
import type { Concept } from '../../concepts.ts';
import type { TextFeatures } from '../../text/text-features.ts';
import type { Sentiment } from '../sentiment.ts';

/**
 * One learned measure, said once: its name (the model artifact's), its dimension and concept,
 * how it is read off a post (`value`) and how a writer is told about it (`sides`). The measures
 * are listed in the model's order (features.ts MEASURES), across the files of this folder.
 */

export interface Side {
  /** What this post does, as a sentence without its full stop. */
  post: string;
  /** The posts on this side, as a plural noun phrase: "<group> went with more engagement". */
  group: string;
  /**
   * What to do when this side of the post went with more engagement, and when it went with less:
   * imperative clauses without a full stop ("keep the numbers", "give the figure"). The signal's
   * sentence ends on one of them, so every measure says what to do.
   */
  keep: string;
  change: string;
  /**
   * The change lengthens the post (a sentence, a detail). Where the platform's limit leaves
   * little room the advice cannot be taken in the post itself (learned/explain.ts `roomFor`).
   */
  grows?: true;
}

/** What to do on a side: [when it helps, when it hurts]. */
export type Acts = [keep: string, change: string];

/** What a measure reads: the text's features and what the feature vector computed once for all. */
export interface MeasureInput {
  f: TextFeatures;
  per100: (n: number) => number;
  /** log(1 + length). */
  logLength: number;
  /** The learned word-choice sum (words.ts `wordPass`). */
  choice: number;
  sentiment: Sentiment;
  /** The hashtag count, the request's when it states one (CONTRACT.md: derived from the text when omitted). */
  hashtags: number;
  /** The links, at least one when the request says the post has an external link, none when it says not. */
  links: number;
}

export interface MeasureRow {
  name: string;
  dimension: Dimension;
  concept: Concept;
  /** The signal's label. */
  label: string;
  /** [more than a typical post, or does it; less, or does not]; none for word choice, worded by its words. */
  sides?: [Side, Side];
  value: (m: MeasureInput) => number;
}

/** "The post has more X than a typical post" / "fewer X": the sides of a count, with what to do on each. */
export function countSides(noun: string, more: Acts, less: Acts, fewer = 'fewer'): [Side, Side] {
  return [
    {
      post: `The post has more ${noun} than a typical post`,
      group: `posts with more ${noun}`,
      keep: more[0],
      change: more[1],
    },
    {
      post: `The post has ${fewer} ${noun} than a typical post`,
      group: `posts with ${fewer} ${noun}`,
      keep: less[0],
      change: less[1],
    },
  ];
}

/** A side with what to do on it. */
export const side = (post: string, group: string, [keep, change]: Acts): Side => ({
  post,
  group,
  keep,
  change,
});

/** `sides` with the second side's change marked as lengthening the post (Side `grows`). */
export const growsOnSecond = ([first, second]: [Side, Side]): [Side, Side] => [
  first,
  { ...second, grows: true },
];
/** `sides` with the first side's change marked as lengthening the post (Side `grows`). */
export const growsOnFirst = ([first, second]: [Side, Side]): [Side, Side] => [
  { ...first, grows: true },
  second,
];

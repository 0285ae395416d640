import type { TextCounting } from '../../packages/client/src/text-length.ts';
import type { MediaKind, Platform as PlatformId } from '../domain/enums.ts';
import type { MediaSetRule } from './media-set.ts';

export type { TextCounting } from '../../packages/client/src/text-length.ts';
export type { PlatformId };

/**
 * Everything Postkit knows about a platform that does not need its credentials: each platform
 * states it once in `<id>/profile.ts`, and the registry (profiles.ts) is typed so a platform
 * id without a profile does not compile. Validation, the post rules, the adapters, the scorer,
 * `GET /v1/meta`, the console and the MCP tool descriptions read it from there.
 */

/** How long one kind of part may be, counted the platform's way (packages/client/src/text-length.ts). */
export interface PartLimit {
  max: number;
  counting: TextCounting;
}

/**
 * The measurable behaviour a platform's feed rewards or punishes, as the scorer uses it
 * (src/scoring/rules/rubrics.ts adds the platform and its post limit).
 */
export interface RubricSettings {
  /** Characters visible before the "see more" fold; the hook must land inside it. */
  foldChars: number;
  /** A first line this short is read whole on every client. */
  tightHookChars: number;
  /** The length band that does best, in characters. */
  idealLength: [number, number];
  /** Beyond the band, every `decayStep` characters costs `decayPoints` of algorithm fit. */
  decayStep: number;
  decayPoints: number;
  /** Below this the post is too thin to earn dwell time. */
  thinLength: number;
  /** Hashtag count from which the algorithm-fit cap applies, and the cap itself. */
  hashtagCapFrom: number;
  hashtagCap: number;
  /** Cap on algorithm fit when the body carries an external link. */
  linkCap: number;
  /** Formats the platform supports natively; others score as plain text with a note. */
  formats: readonly MediaKind[];
  /** Sentence-count band that does best (whole posts). */
  sentenceBand: [number, number];
  /** Below this many sentences a post is measured to do worse; null where nothing was measured. */
  fewSentencesBelow: number | null;
  /**
   * Whose published reach figures by format the scorer states (rules/format.ts): null when they
   * were measured on this platform, else the platform they were measured on (an approximation).
   */
  reachFiguresFrom: PlatformId | null;
  /** What a model judge or writer is told about the feed, in its prompt (SCORING.md "Judge"). */
  feedNotes: string;
}

export interface PlatformProfile<Id extends PlatformId = PlatformId> {
  id: Id;
  /** The platform's name in sentences shown to people. */
  displayName: string;
  /** The post itself (the first part). */
  post: PartLimit;
  /**
   * Follow-up parts published as replies, each to the part before it; null where the platform
   * has no threads. The one statement of whether a platform has threads.
   */
  threads: { maxFollowUps: number; reply: PartLimit } | null;
  /** The comment published right after the post: under it (`comment`) or as a reply to it (`reply`). */
  firstComment: { as: 'comment' | 'reply'; limit: PartLimit };
  /** What one post may carry (files by content type). */
  media: MediaSetRule & { maxImages: number };
  /** Where the feed card folds a long post behind "see more" (lines, characters); null when it shows it whole. */
  fold: { chars: number; lines: number } | null;
  rubric: RubricSettings;
}

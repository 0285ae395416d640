import { MAX_POST_LENGTH, type MediaKind, type Platform } from '../domain/enums.ts';

/**
 * Platform rubrics: the measurable behaviour each platform's feed rewards or punishes.
 * platformA's numbers come from SCORING.md (each cited where used); platformB has no
 * published dataset in the spec, so its values are stated assumptions for a short-form,
 * 280-character feed and carry less weight (every penalty there is mild).
 */
export interface Rubric {
  platform: Platform;
  maxLength: number;
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
}

export const RUBRICS: Record<Platform, Rubric> = {
  platformA: {
    platform: 'platformA',
    maxLength: MAX_POST_LENGTH.platformA,
    // The fold sits at ~140-210 characters depending on client (SCORING.md).
    foldChars: 210,
    tightHookChars: 140,
    // 800-1,200 does best; beyond that each 300 characters costs ~10% reach
    // (van der Blom; AuthoredUp 2025). The band is widened slightly at the low end
    // because 10-15 sentence posts (the best sentence band) fit from ~600 characters.
    idealLength: [400, 1300],
    decayStep: 300,
    decayPoints: 5,
    thinLength: 300,
    // 1-10 hashtags make little difference; treat 6+ as the cap but keep it mild (van der Blom).
    hashtagCapFrom: 6,
    hashtagCap: 75,
    // External links: about -26% reach (Ordinal, 900k posts) -> fit capped near 100 * 0.74 minus margin.
    linkCap: 60,
    formats: ['none', 'single-image', 'multi-image', 'document', 'video', 'poll', 'link'],
    // 10-15 sentences: 1.64x the author's median vs 0.75x under 5 (31,020 posts, profiles).
    sentenceBand: [10, 15],
  },
  platformB: {
    platform: 'platformB',
    maxLength: MAX_POST_LENGTH.platformB,
    // Short-form feed: the whole post is visible; the first ~100 characters carry the hook.
    foldChars: 280,
    tightHookChars: 100,
    idealLength: [70, 240],
    decayStep: 40,
    decayPoints: 5,
    thinLength: 40,
    // Assumption: short-form feeds read 3+ hashtags as spam sooner than platformA does.
    hashtagCapFrom: 3,
    hashtagCap: 70,
    linkCap: 60,
    formats: ['none', 'single-image', 'multi-image', 'video', 'poll', 'link'],
    sentenceBand: [1, 4],
  },
};

export const rubricFor = (platform: Platform | undefined): Rubric => RUBRICS[platform ?? 'platformA'];

import type { PartLimit, PlatformProfile } from '../profile.ts';
import { platformBMediaRule } from './media-rules.ts';

/**
 * Every platformB part (the post, a thread part, the first comment) is a post of its own: 280
 * weighted characters, decided in PLATFORM_B.md as every code point 1 and every URL 23 whatever
 * its length (the platform shortens links), so Chinese text counts one per character.
 */
const PART: PartLimit = { max: 280, counting: { unit: 'codePoint', urlWeight: 23 } };

/**
 * platformB (PLATFORM_B.md): threads of up to 24 follow-up parts, each a reply to the part
 * before; the first comment is a reply to the post (or the thread's last part). It has no
 * published dataset in the spec, so its rubric values are stated assumptions for a short-form,
 * 280-character feed and carry less weight (every penalty there is mild).
 */
export const platformBProfile: PlatformProfile<'platformB'> = {
  id: 'platformB',
  displayName: 'platformB',
  post: PART,
  threads: { maxFollowUps: 24, reply: PART },
  firstComment: { as: 'reply', limit: PART },
  media: platformBMediaRule,
  // Short-form feed: the whole post is visible.
  fold: null,
  rubric: {
    // The first ~100 characters carry the hook.
    foldChars: PART.max,
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
    fewSentencesBelow: null,
    reachFiguresFrom: 'platformA',
    feedNotes:
      'A short-form feed: the whole post is visible; the first ~100 characters carry it. Links and 3+ hashtags cost reach. One sharp idea per post.',
  },
};

import type { PlatformProfile } from '../profile.ts';
import { platformAMediaRule } from './media-rules.ts';

/** Where the feed card folds a post: at most 3 lines and 210 characters (SCORING.md: ~140-210 by client). */
const FOLD = { chars: 210, lines: 3 };

/**
 * platformA (PLATFORM_A.md, DECISIONS.md): a post of up to 3,000 characters counted in UTF-16
 * units as the platform counts them; no threads; a first comment under the post of up to 1,250
 * characters (code points). The rubric's numbers come from SCORING.md, each cited where used.
 */
export const platformAProfile: PlatformProfile<'platformA'> = {
  id: 'platformA',
  displayName: 'platformA',
  post: { max: 3000, counting: { unit: 'utf16', urlWeight: null } },
  threads: null,
  firstComment: { as: 'comment', limit: { max: 1250, counting: { unit: 'codePoint', urlWeight: null } } },
  media: platformAMediaRule,
  fold: FOLD,
  rubric: {
    foldChars: FOLD.chars,
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
    fewSentencesBelow: 5,
    reachFiguresFrom: null,
    feedNotes: `About ${FOLD.chars} characters show before "see more": the hook must land there. 800-1,200 characters does best; each 300 beyond costs ~10% reach. External links cost ~26% reach (put them in the first comment). 6+ hashtags read as spam. Text from people outperforms company voice. Personal stories, specific numbers and names, and one genuine question earn replies; engagement bait ("comment YES") is demoted.`,
  },
};

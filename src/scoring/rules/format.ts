import type { MediaKind } from '../../domain/enums.ts';
import { PROFILES } from '../../platforms/profiles.ts';
import type { Rubric } from './rubrics.ts';

/**
 * Reach multiplier by format, times the median post, for personal profiles
 * (van der Blom 2024, 1.5M posts): poll 1.99, document 1.60, text+image 1.26, video 1.21,
 * text 1.17. Multi-image has no reach figure there; its engagement per impression (6.8%,
 * Socialinsider 2026) sits next to documents (7.0%) and above single images, so it takes
 * the image figure. A link-preview card halves median impressions (MagicPost, 567k posts),
 * so a link post is text (1.17) halved.
 */
export const MULTIPLIERS: Record<MediaKind, number> = {
  poll: 1.99,
  document: 1.6,
  'single-image': 1.26,
  'multi-image': 1.26,
  video: 1.21,
  none: 1.17,
  link: 0.59,
};

const NOTES: Record<MediaKind, string> = {
  poll: 'Polls reach about 1.99x the median post on personal profiles (van der Blom 2024, 1.5M posts), though votes are cheap engagement.',
  document:
    'Document (carousel) posts reach about 1.60x the median post (van der Blom 2024) and earn the highest engagement per impression, 7.0% (Socialinsider 2026).',
  'single-image': 'Text with an image reaches about 1.26x the median post (van der Blom 2024).',
  'multi-image':
    'Multi-image posts earn 6.8% engagement per impression, close to documents (Socialinsider 2026); reach is taken as the single-image 1.26x.',
  video:
    'Native video reaches about 1.21x the median post (van der Blom 2024); 5.9% engagement per impression.',
  none: 'Text-only posts reach about 1.17x the median post on personal profiles (van der Blom 2024); they do well when the writing carries them.',
  link: 'A link-preview card halves median impressions (MagicPost, 567k posts): a link post reaches about 0.59x the median post against 1.17x for text.',
};

/** How signals and verdicts name a format ("fix first: a link card", never "link format"). */
export const FORMAT_LABELS: Record<MediaKind, string> = {
  none: 'A text-only post',
  'single-image': 'A single image',
  'multi-image': 'Several images',
  document: 'A document',
  video: 'A video',
  poll: 'A poll',
  link: 'A link card',
};

export interface FormatAssessment {
  media: MediaKind;
  multiplier: number;
  note: string;
  /** Algorithm-fit points: 20 per doubling of reach (log scale keeps poll and link symmetric). */
  points: number;
}

export function assessFormat(media: MediaKind, rubric: Rubric): FormatAssessment {
  if (!rubric.formats.includes(media)) {
    return {
      media,
      multiplier: 1,
      note: `${rubric.displayName} has no native ${FORMAT_LABELS[media].toLowerCase().replace(/^an? /, '')} format; the post is scored as plain text, with no gain or loss of reach for its format.`,
      points: 0,
    };
  }
  const multiplier = MULTIPLIERS[media];
  const from = rubric.reachFiguresFrom;
  const note =
    from === null
      ? NOTES[media]
      : `${NOTES[media]} These are ${PROFILES[from].displayName} figures, applied to ${rubric.displayName} as an approximation.`;
  return { media, multiplier, note, points: Math.round(20 * Math.log2(multiplier)) };
}

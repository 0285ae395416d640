import type { MediaSetRule, MediaSetVerdict } from '../media-set.ts';

/** platformB posts carry at most this many images (PLATFORM_B.md). */
export const PLATFORM_B_MAX_IMAGES = 4;

export type MediaCategory = 'tweet_image' | 'tweet_gif' | 'tweet_video';

/** The upload category of a content type, or null when platformB takes no such file. */
export function categoryOf(contentType: string): MediaCategory | null {
  if (contentType === 'image/gif') return 'tweet_gif';
  if (contentType.startsWith('image/')) return 'tweet_image';
  if (contentType === 'video/mp4') return 'tweet_video';
  return null;
}

/** platformB posts carry nothing, 1-4 images, or one video or GIF; no PDF. */
export const platformBMediaRule: MediaSetRule = {
  summary: `1-${PLATFORM_B_MAX_IMAGES} images, or one video or GIF (no PDF)`,
  maxImages: PLATFORM_B_MAX_IMAGES,
  check(types): MediaSetVerdict {
    if (types.length === 0) return { ok: true, kind: 'none' };
    if (types.includes('application/pdf'))
      return { ok: false, reason: 'platformB does not accept PDF documents.' };
    const categories = types.map(categoryOf);
    if (categories.some((c) => c === null))
      return { ok: false, reason: 'platformB accepts images, GIFs and MP4 videos only.' };
    if (categories.every((c) => c === 'tweet_image')) {
      if (types.length === 1) return { ok: true, kind: 'single-image' };
      if (types.length <= PLATFORM_B_MAX_IMAGES) return { ok: true, kind: 'multi-image' };
      return {
        ok: false,
        reason: `A platformB post carries at most ${PLATFORM_B_MAX_IMAGES} images (got ${types.length}).`,
      };
    }
    if (types.length === 1)
      return { ok: true, kind: categories[0] === 'tweet_video' ? 'video' : 'single-image' };
    return {
      ok: false,
      reason: `A platformB post carries up to ${PLATFORM_B_MAX_IMAGES} images, or one video or GIF, not a mix.`,
    };
  },
};

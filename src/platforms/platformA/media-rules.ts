import type { MediaSetRule, MediaSetVerdict } from '../media-set.ts';

/** platformA's MultiImage content holds at most this many images. */
export const PLATFORM_A_MAX_IMAGES = 20;

const isImage = (type: string) => type.startsWith('image/');
const isVideo = (type: string) => type.startsWith('video/');
const isDocument = (type: string) => type === 'application/pdf';

/** platformA posts carry nothing, one image, 2-20 images, one video, or one PDF document. */
export const platformAMediaRule: MediaSetRule = {
  summary: `1-${PLATFORM_A_MAX_IMAGES} images, or one video, or one PDF document`,
  maxImages: PLATFORM_A_MAX_IMAGES,
  check(types): MediaSetVerdict {
    if (types.length === 0) return { ok: true, kind: 'none' };
    if (types.every(isImage)) {
      if (types.length === 1) return { ok: true, kind: 'single-image' };
      if (types.length <= PLATFORM_A_MAX_IMAGES) return { ok: true, kind: 'multi-image' };
      return {
        ok: false,
        reason: `A platformA post carries at most ${PLATFORM_A_MAX_IMAGES} images (got ${types.length}).`,
      };
    }
    if (types.length === 1 && isVideo(types[0]!)) return { ok: true, kind: 'video' };
    if (types.length === 1 && isDocument(types[0]!)) return { ok: true, kind: 'document' };
    return {
      ok: false,
      reason: 'A platformA post carries one video, one PDF document, or 1-20 images, not a mix.',
    };
  },
};

/** The format the scorer weighs (MediaKind), from what is attached to a post. */
export type AttachedKind = 'none' | 'single-image' | 'multi-image' | 'document' | 'video';

export function mediaKindOf(media: readonly { contentType: string }[]): AttachedKind {
  if (media.length === 0) return 'none';
  if (media.some((m) => m.contentType.startsWith('video/'))) return 'video';
  if (media.some((m) => m.contentType === 'application/pdf')) return 'document';
  return media.length > 1 ? 'multi-image' : 'single-image';
}

/**
 * What a platform lets one post carry. Each platform states its rule once (next to its
 * adapter, e.g. platformA/media-rules.ts) and its profile carries it (`profile.media`), so
 * validate, the post rules and the adapter itself never disagree.
 */

/** The form a post's media amount to (the MediaKind values a stored media set can take). */
export type MediaSetKind = 'none' | 'single-image' | 'multi-image' | 'video' | 'document';

export type MediaSetVerdict = { ok: true; kind: MediaSetKind } | { ok: false; reason: string };

export interface MediaSetRule {
  /** One line for messages, e.g. "1-20 images, or one video, or one PDF document". */
  readonly summary: string;
  /** The most images one post may carry. */
  readonly maxImages: number;
  /** Judges a post's attachments by their content types, in order: what they amount to, or why not. */
  check(contentTypes: readonly string[]): MediaSetVerdict;
}

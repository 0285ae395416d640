/**
 * What a platform lets one post carry. Each platform states its rule once (next to its
 * adapter, e.g. platformA/media-rules.ts); the registry (media-rules.ts) hands it to
 * validate, to the post rules and to the adapter itself, so the three never disagree.
 */

/** The form a post's media amount to (the MediaKind values a stored media set can take). */
export type MediaSetKind = 'none' | 'single-image' | 'multi-image' | 'video' | 'document';

export type MediaSetVerdict = { ok: true; kind: MediaSetKind } | { ok: false; reason: string };

export interface MediaSetRule {
  /** One line for messages, e.g. "1-20 images, or one video, or one PDF document". */
  readonly summary: string;
  /** Judges a post's attachments by their content types, in order: what they amount to, or why not. */
  check(contentTypes: readonly string[]): MediaSetVerdict;
}

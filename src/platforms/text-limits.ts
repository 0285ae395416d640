import { MAX_POST_LENGTH } from '../domain/enums.ts';
import { PLATFORM_A_MAX_COMMENT } from './platformA/comments.ts';
import { PLATFORM_B_MAX_TEXT, weightedLength } from './platformB/text.ts';

/**
 * How long each part of a post may be, per platform, counted the platform's way. Static (no
 * credentials): the post rules and validate judge a post for a platform this deployment may
 * not be configured for. The adapters check the same limits again before sending.
 */
export interface TextLimit {
  max: number;
  length(text: string): number;
  /** How `length` counts, for messages. */
  counted: string;
}

const utf16: TextLimit['length'] = (text) => text.length;
const codePoints: TextLimit['length'] = (text) => [...text].length;

const PLATFORM_A_POST: TextLimit = {
  max: MAX_POST_LENGTH.platformA,
  length: utf16,
  counted: 'characters',
};
const PLATFORM_A_COMMENT: TextLimit = {
  max: PLATFORM_A_MAX_COMMENT,
  length: codePoints,
  counted: 'characters',
};
/** Every platformB part (the post, a thread part, the first comment) is a post of its own. */
const PLATFORM_B_PART: TextLimit = {
  max: PLATFORM_B_MAX_TEXT,
  length: weightedLength,
  counted: 'weighted characters (a URL counts 23)',
};

const LIMITS: Readonly<Record<string, { post: TextLimit; reply: TextLimit | null; comment: TextLimit }>> = {
  platformA: { post: PLATFORM_A_POST, reply: null, comment: PLATFORM_A_COMMENT },
  platformB: { post: PLATFORM_B_PART, reply: PLATFORM_B_PART, comment: PLATFORM_B_PART },
};

export type PartKind = 'post' | 'reply' | 'comment';

/**
 * The limit for one kind of part on a platform: undefined for a platform that publishes
 * nothing, null for a kind the platform does not have (platformA has no thread replies).
 */
export function textLimitFor(platform: string, kind: PartKind): TextLimit | null | undefined {
  return Object.hasOwn(LIMITS, platform) ? LIMITS[platform]![kind] : undefined;
}

/** Whether a platform publishes a post's follow-up parts as a thread of replies. */
export const hasThreads = (platform: string) => textLimitFor(platform, 'reply') != null;

/** A thread carries at most this many follow-up parts (25 parts in all). */
export const MAX_THREAD_PARTS = 24;

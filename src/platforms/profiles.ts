import { countedLength, countingWords } from '../../packages/client/src/text-length.ts';
import { Platform as PlatformIds } from '../domain/enums.ts';
import type { MediaSetRule } from './media-set.ts';
import { platformAProfile } from './platformA/profile.ts';
import { platformBProfile } from './platformB/profile.ts';
import type { PartLimit, PlatformId, PlatformProfile } from './profile.ts';

export type { MediaSetKind, MediaSetRule, MediaSetVerdict } from './media-set.ts';
export type { PartLimit, PlatformId, PlatformProfile } from './profile.ts';

/**
 * Every platform's profile, by id. Typed by the contract's platform enumeration: a platform id
 * without a profile here (or a profile filed under another id) does not compile. Static (no
 * credentials): validate and the post rules judge a post for a platform this deployment may not
 * be configured for.
 */
export const PROFILES: { readonly [Id in PlatformId]: PlatformProfile<Id> } = {
  platformA: platformAProfile,
  platformB: platformBProfile,
};

/** The platform a request means when it names none (the contract's first platform). */
export const DEFAULT_PLATFORM: PlatformId = 'platformA';

/** Every platform id, in the contract's order. */
export const PLATFORM_IDS: readonly PlatformId[] = PlatformIds.options;

export const isPlatformId = (id: string): id is PlatformId => Object.hasOwn(PROFILES, id);

/** The profile of a platform id, or undefined for an id that is no platform (a stored value, a query). */
export function profileOf(id: string): PlatformProfile | undefined {
  return isPlatformId(id) ? PROFILES[id] : undefined;
}

/** A thread carries at most this many follow-up parts on any platform (the request schemas' bound). */
export const MAX_THREAD_PARTS = Math.max(
  0,
  ...PLATFORM_IDS.map((id) => PROFILES[id].threads?.maxFollowUps ?? 0),
);

/** Whether a platform publishes a post's follow-up parts as a thread of replies. */
export const hasThreads = (platform: string) => profileOf(platform)?.threads != null;

/** The platform's media-set rule, or undefined for a platform that publishes nothing. */
export const mediaRuleFor = (platform: string): MediaSetRule | undefined => profileOf(platform)?.media;

/** A part limit as the rules use it: the maximum, the count, and how it counts (for messages). */
export interface TextLimit {
  max: number;
  length(text: string): number;
  counted: string;
}

export type PartKind = 'post' | 'reply' | 'comment';

export function partLimitOf(profile: PlatformProfile, kind: PartKind): PartLimit | null {
  if (kind === 'post') return profile.post;
  if (kind === 'reply') return profile.threads?.reply ?? null;
  return profile.firstComment.limit;
}

const asTextLimit = ({ max, counting }: PartLimit): TextLimit => ({
  max,
  length: (text) => countedLength(counting, text),
  counted: countingWords(counting),
});

/**
 * The limit for one kind of part on a platform: undefined for a platform that publishes
 * nothing, null for a kind the platform does not have (platformA has no thread replies).
 */
export function textLimitFor(platform: string, kind: PartKind): TextLimit | null | undefined {
  const profile = profileOf(platform);
  if (!profile) return undefined;
  const limit = partLimitOf(profile, kind);
  return limit && asTextLimit(limit);
}

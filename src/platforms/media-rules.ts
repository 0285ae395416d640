import type { MediaSetRule } from './media-set.ts';
import { platformAMediaRule } from './platformA/media-rules.ts';
import { platformBMediaRule } from './platformB/media-rules.ts';

export type { MediaSetKind, MediaSetRule, MediaSetVerdict } from './media-set.ts';

/**
 * Each platform's media-set rule, by platform id. Static (no credentials needed): validate
 * and the post rules judge a post for a platform this deployment may not be configured for.
 * A new platform adds its rule here and returns the same object as its adapter's `mediaRule`.
 */
const MEDIA_RULES: Readonly<Record<string, MediaSetRule>> = {
  platformA: platformAMediaRule,
  platformB: platformBMediaRule,
};

/** The platform's rule, or undefined for a platform that publishes nothing. */
export function mediaRuleFor(platform: string): MediaSetRule | undefined {
  return Object.hasOwn(MEDIA_RULES, platform) ? MEDIA_RULES[platform] : undefined;
}

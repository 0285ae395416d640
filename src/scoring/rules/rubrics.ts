import type { Platform } from '../../domain/enums.ts';
import type { RubricSettings, TextCounting } from '../../platforms/profile.ts';
import { DEFAULT_PLATFORM, PLATFORM_IDS, PROFILES } from '../../platforms/profiles.ts';

/**
 * Platform rubrics: the measurable behaviour each platform's feed rewards or punishes. Each
 * platform states its settings in its profile (src/platforms/<id>/profile.ts, with their
 * sources); the scorer adds the platform and its post limit.
 */
export interface Rubric extends RubricSettings {
  platform: Platform;
  /** The platform's name in sentences. */
  displayName: string;
  maxLength: number;
  /** How the platform counts a post against `maxLength` (a URL may count a fixed weight). */
  counting: TextCounting;
  /** Whether a post over the limit can go out as a thread. */
  threads: boolean;
  /** Whether the feed folds a post behind "see more"; a platform without a fold has none to land before. */
  folds: boolean;
}

export const RUBRICS = Object.fromEntries(
  PLATFORM_IDS.map((id) => [
    id,
    {
      ...PROFILES[id].rubric,
      platform: id,
      displayName: PROFILES[id].displayName,
      maxLength: PROFILES[id].post.max,
      counting: PROFILES[id].post.counting,
      threads: PROFILES[id].threads !== null,
      folds: PROFILES[id].fold !== null,
    },
  ]),
) as Record<Platform, Rubric>;

export const rubricFor = (platform: Platform | undefined): Rubric => RUBRICS[platform ?? DEFAULT_PLATFORM];

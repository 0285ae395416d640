import type { Platform } from '../../domain/enums.ts';
import type { RubricSettings } from '../../platforms/profile.ts';
import { DEFAULT_PLATFORM, PLATFORM_IDS, PROFILES } from '../../platforms/profiles.ts';

/**
 * Platform rubrics: the measurable behaviour each platform's feed rewards or punishes. Each
 * platform states its settings in its profile (src/platforms/<id>/profile.ts, with their
 * sources); the scorer adds the platform and its post limit.
 */
export interface Rubric extends RubricSettings {
  platform: Platform;
  maxLength: number;
}

export const RUBRICS = Object.fromEntries(
  PLATFORM_IDS.map((id) => [id, { ...PROFILES[id].rubric, platform: id, maxLength: PROFILES[id].post.max }]),
) as Record<Platform, Rubric>;

export const rubricFor = (platform: Platform | undefined): Rubric => RUBRICS[platform ?? DEFAULT_PLATFORM];

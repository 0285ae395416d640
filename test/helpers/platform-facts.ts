import { publishedProfile } from '../../src/features/system/system.service.ts';
import { PROFILES } from '../../src/platforms/profiles.ts';
import type { PlatformFacts } from '../../web/src/lib/parts.ts';

/**
 * The console's platform facts exactly as `GET /v1/meta` publishes them (the same function
 * builds both), for console logic tests that run without a server.
 */
export const FACTS = {
  platformA: {
    id: 'platformA',
    maxPostLength: 3000,
    publishing: true,
    ...publishedProfile(PROFILES.platformA),
  },
  platformB: {
    id: 'platformB',
    maxPostLength: 280,
    publishing: true,
    ...publishedProfile(PROFILES.platformB),
  },
} satisfies Record<string, PlatformFacts>;

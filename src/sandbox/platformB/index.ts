import type { Route } from '../http.ts';
import { adminRoutes } from './admin.ts';
import { PlatformBFaults } from './faults.ts';
import type { PlatformBLane, PlatformBSettings } from './lane.ts';
import { mediaRoutes } from './media.ts';
import { oauthRoutes } from './oauth.ts';
import { PlatformBState } from './state.ts';
import { tweetRoutes } from './tweets.ts';

export { platformBSection } from './admin.ts';
export { PLATFORM_B_ROUTES, PlatformBFaults, type PlatformBRoute } from './faults.ts';
export type { PlatformBLane, PlatformBSettings } from './lane.ts';
export * from './state.ts';

/** The platformB emulator's routes, served by the sandbox next to platformA's (paths do not overlap). */
export const platformBRoutes: Route[] = [...oauthRoutes, ...tweetRoutes, ...mediaRoutes, ...adminRoutes];

export type PlatformBSandboxOptions = Partial<PlatformBSettings>;

export function createPlatformBLane(options: PlatformBSandboxOptions, now: () => number): PlatformBLane {
  const state = new PlatformBState({ now });
  return {
    state,
    faults: new PlatformBFaults(state, now),
    settings: {
      clientId: options.clientId ?? 'sandbox-b-client',
      clientSecret: options.clientSecret ?? 'sandbox-b-secret',
      accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 7200,
      createLimit: options.createLimit ?? 100,
      deleteLimit: options.deleteLimit ?? 50,
      windowSeconds: options.windowSeconds ?? 900,
      mediaProcessingPolls: options.mediaProcessingPolls ?? 1,
      rejectDuplicates: options.rejectDuplicates ?? false,
    },
  };
}

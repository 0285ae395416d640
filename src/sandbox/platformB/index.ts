import type { LaneDefinition } from '../lane.ts';
import { adminRoutes, platformBSection } from './admin.ts';
import { type PlatformBFault, PlatformBFaults, type PlatformBRoute } from './faults.ts';
import { sendBFault } from './http.ts';
import type { PlatformBCtx, PlatformBSettings } from './lane.ts';
import { mediaRoutes } from './media.ts';
import { oauthRoutes } from './oauth.ts';
import { postPageRoutes } from './post-page.ts';
import { PlatformBState } from './state.ts';
import { tweetRoutes } from './tweets.ts';

export { DUPLICATE_MESSAGE, PLATFORM_B_ROUTES, PlatformBFaults, type PlatformBRoute } from './faults.ts';
export type { PlatformBSettings } from './lane.ts';
export * from './state.ts';

export type PlatformBSandboxOptions = Partial<PlatformBSettings>;

/** `sandbox.platformB`: its addresses (PLATFORM_B.md: `/i/oauth2`, `/2/oauth2/token`, `/2/...`), client, state and faults. */
export interface PlatformBSandbox {
  /** PLATFORMB_AUTH_URL: `${url}/i/oauth2` */
  authUrl: string;
  /** PLATFORMB_TOKEN_URL: `${url}/2/oauth2/token` */
  tokenUrl: string;
  /** PLATFORMB_API_URL: `url` */
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  state: PlatformBState;
  faults: PlatformBFaults;
  /** The PLATFORMB_* variables that point Postkit at this lane. */
  env(redirectUri?: string): Record<string, string>;
}

/** The platformB emulator: its wire routes, admin under /_sandbox/platformB and its post pages. */
export const platformBLane: LaneDefinition<
  PlatformBSandboxOptions,
  PlatformBCtx,
  PlatformBRoute,
  PlatformBSandbox,
  PlatformBFault
> = {
  create(options, base) {
    const state = new PlatformBState({ now: base.now });
    return {
      ...base,
      state,
      faults: new PlatformBFaults(state, base.now),
      settings: {
        clientId: options.clientId ?? 'sandbox-b-client',
        clientSecret: options.clientSecret ?? 'sandbox-b-secret',
        accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 7200,
        createLimit: options.createLimit ?? 100,
        deleteLimit: options.deleteLimit ?? 50,
        windowSeconds: options.windowSeconds ?? 900,
        mediaProcessingPolls: options.mediaProcessingPolls ?? 1,
        rejectDuplicates: options.rejectDuplicates ?? false,
        timelineLimit: options.timelineLimit ?? 3_200,
      },
    };
  },
  routes: [...oauthRoutes, ...tweetRoutes, ...mediaRoutes, ...adminRoutes, ...postPageRoutes],
  record: (ctx, route) => ctx.state.recordRequest(route),
  sendFault: (ctx, res, route, fault) => sendBFault(res, route, fault, ctx.now()),
  indexSection: platformBSection,
  controls(ctx) {
    const url = ctx.baseUrl;
    return {
      authUrl: `${url}/i/oauth2`,
      tokenUrl: `${url}/2/oauth2/token`,
      apiUrl: url,
      clientId: ctx.settings.clientId,
      clientSecret: ctx.settings.clientSecret,
      state: ctx.state,
      faults: ctx.faults,
      env: (redirectUri = 'http://127.0.0.1:8080/v1/channels/platformB/callback') => ({
        PLATFORMB_CLIENT_ID: ctx.settings.clientId,
        PLATFORMB_CLIENT_SECRET: ctx.settings.clientSecret,
        PLATFORMB_REDIRECT_URI: redirectUri,
        PLATFORMB_AUTH_URL: `${url}/i/oauth2`,
        PLATFORMB_TOKEN_URL: `${url}/2/oauth2/token`,
        PLATFORMB_API_URL: url,
        PLATFORMB_POST_URL: `${url}/_sandbox/platformB/posts/{id}`,
        PLATFORMB_TIMELINE_LIMIT: String(ctx.settings.timelineLimit),
      }),
    };
  },
};

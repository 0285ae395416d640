import type { LaneDefinition } from '../lane.ts';
import { adminRoutes, platformASection } from './admin.ts';
import { analyticsRoutes } from './analytics.ts';
import { assetRoutes } from './assets.ts';
import { authorizeRoutes } from './authorize.ts';
import { commentRoutes } from './comments.ts';
import { sendAFault } from './fault-answer.ts';
import { type PlatformAFault, PlatformAFaults, type PlatformARoute } from './faults.ts';
import type { PlatformACtx, PlatformASettings } from './lane.ts';
import { postPageRoutes } from './post-page.ts';
import { postRoutes } from './posts.ts';
import { type AMember, type APost, type MetricCounts, PlatformAState } from './state.ts';
import { tokenRoutes } from './token.ts';
import { videoRoutes } from './videos.ts';

export { type FaultSpec, PLATFORM_A_ROUTES, PlatformAFaults, type PlatformARoute } from './faults.ts';
export type { PlatformASettings } from './lane.ts';
export * from './state.ts';

export interface PlatformASandboxOptions extends Partial<PlatformASettings> {
  /** The first member (who approves consents). */
  member?: Partial<AMember>;
  /** Analytics counts of each new post (default: deterministic per post, LINK_CLICKS without data). */
  metrics?: (post: APost) => MetricCounts;
}

/** `sandbox.platformA`: its addresses (PLATFORM_A.md: `/oauth/v2`, `/v2/...`, `/rest/...`), client, state and faults. */
export interface PlatformASandbox {
  /** PLATFORMA_AUTH_URL: `${url}/oauth/v2` */
  authUrl: string;
  /** PLATFORMA_API_URL: `url` */
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  state: PlatformAState;
  faults: PlatformAFaults;
  /** The PLATFORMA_* variables that point Postkit at this lane. */
  env(redirectUri?: string): Record<string, string>;
}

/** The platformA emulator: its wire routes, admin under /_sandbox/platformA and its post pages. */
export const platformALane: LaneDefinition<
  PlatformASandboxOptions,
  PlatformACtx,
  PlatformARoute,
  PlatformASandbox,
  PlatformAFault
> = {
  create(options, base) {
    const state = new PlatformAState({ now: base.now, member: options.member, metrics: options.metrics });
    return {
      ...base,
      state,
      faults: new PlatformAFaults(state, base.now),
      settings: {
        clientId: options.clientId ?? 'sandbox-client',
        clientSecret: options.clientSecret ?? 'sandbox-secret',
        redirectUris: options.redirectUris ?? null,
        requirePkce: options.requirePkce ?? false,
        accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 5_184_000,
        refreshTokens: options.refreshTokens ?? true,
        refreshTokenTtlSeconds: options.refreshTokenTtlSeconds ?? 31_536_000,
        videoPartSize: options.videoPartSize ?? 4 * 1024 * 1024,
        videoProcessingPolls: options.videoProcessingPolls ?? 1,
        rejectDuplicates: options.rejectDuplicates ?? false,
        minVersion: options.minVersion ?? '202401',
      },
    };
  },
  routes: [
    ...authorizeRoutes,
    ...tokenRoutes,
    ...postRoutes,
    ...commentRoutes,
    ...assetRoutes,
    ...videoRoutes,
    ...analyticsRoutes,
    ...adminRoutes,
    ...postPageRoutes,
  ],
  record: (ctx, route, method, path) => ctx.state.recordRequest(method, route, path),
  sendFault: (_ctx, res, route, fault) => sendAFault(res, route, fault),
  indexSection: platformASection,
  controls(ctx) {
    const url = ctx.baseUrl;
    return {
      authUrl: `${url}/oauth/v2`,
      apiUrl: url,
      clientId: ctx.settings.clientId,
      clientSecret: ctx.settings.clientSecret,
      state: ctx.state,
      faults: ctx.faults,
      env: (redirectUri = 'http://127.0.0.1:8080/v1/channels/platformA/callback') => ({
        PLATFORMA_CLIENT_ID: ctx.settings.clientId,
        PLATFORMA_CLIENT_SECRET: ctx.settings.clientSecret,
        PLATFORMA_REDIRECT_URI: redirectUri,
        PLATFORMA_AUTH_URL: `${url}/oauth/v2`,
        PLATFORMA_API_URL: url,
        PLATFORMA_POST_URL: `${url}/_sandbox/platformA/posts/{id}`,
      }),
    };
  },
};

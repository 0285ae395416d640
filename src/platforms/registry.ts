import type { Config } from '../config/config.ts';
import type { Platform } from './platform.ts';
import { createPlatformA, type PlatformAOptions } from './platformA/adapter.ts';
import { createPlatformB, type PlatformBOptions } from './platformB/adapter.ts';
import type { PlatformId } from './profile.ts';

/** Adapter settings a test or benchmark may override (timeouts, clock, sleep). */
export type PlatformOverrides = {
  platformA?: Partial<PlatformAOptions>;
  platformB?: Partial<PlatformBOptions>;
};

/**
 * One entry per platform: whether the deployment has its app credentials, and how to build its
 * adapter from the configuration. Keyed by platform id, so a platform without an entry does not
 * compile. Adding a platform adds an entry here, its folder (with its profile), its config
 * variables and its sandbox lane; channels, publishing and metrics only see `Platform`.
 */
interface PlatformEntry {
  configured(config: Config): boolean;
  create(config: Config, overrides: PlatformOverrides): Platform;
}

const ENTRIES: { readonly [Id in PlatformId]: PlatformEntry } = {
  platformA: {
    configured: (c) =>
      Boolean(c.PLATFORMA_CLIENT_ID && c.PLATFORMA_CLIENT_SECRET && c.PLATFORMA_REDIRECT_URI),
    create: (c, overrides) =>
      createPlatformA({
        clientId: c.PLATFORMA_CLIENT_ID!,
        clientSecret: c.PLATFORMA_CLIENT_SECRET!,
        redirectUri: c.PLATFORMA_REDIRECT_URI!,
        authUrl: c.PLATFORMA_AUTH_URL,
        apiUrl: c.PLATFORMA_API_URL,
        apiVersion: c.PLATFORMA_API_VERSION,
        pkce: c.PLATFORMA_PKCE,
        backoffScale: c.PLATFORMA_BACKOFF_SCALE,
        postUrl: c.PLATFORMA_POST_URL ?? null,
        ...overrides.platformA,
      }),
  },
  platformB: {
    configured: (c) =>
      Boolean(c.PLATFORMB_CLIENT_ID && c.PLATFORMB_CLIENT_SECRET && c.PLATFORMB_REDIRECT_URI),
    create: (c, overrides) =>
      createPlatformB({
        clientId: c.PLATFORMB_CLIENT_ID!,
        clientSecret: c.PLATFORMB_CLIENT_SECRET!,
        redirectUri: c.PLATFORMB_REDIRECT_URI!,
        authUrl: c.PLATFORMB_AUTH_URL,
        tokenUrl: c.PLATFORMB_TOKEN_URL,
        apiUrl: c.PLATFORMB_API_URL,
        backoffScale: c.PLATFORMB_BACKOFF_SCALE,
        postUrl: c.PLATFORMB_POST_URL ?? null,
        timelineLimit: c.PLATFORMB_TIMELINE_LIMIT,
        ...overrides.platformB,
      }),
  },
};

/** Whether the deployment has this platform's app credentials (all three are needed). */
export function platformConfigured(config: Config, id: string): boolean {
  return Object.hasOwn(ENTRIES, id) && ENTRIES[id as PlatformId].configured(config);
}

/**
 * The publishing platforms this deployment can use, keyed by platform id. A platform whose
 * app credentials are missing is absent (its channel routes answer 503).
 */
export function createPlatforms(config: Config, overrides: PlatformOverrides = {}): Map<string, Platform> {
  const platforms = new Map<string, Platform>();
  for (const [id, entry] of Object.entries(ENTRIES)) {
    if (entry.configured(config)) platforms.set(id, entry.create(config, overrides));
  }
  return platforms;
}

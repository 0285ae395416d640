import type { Config } from '../config/config.ts';
import type { Platform } from './platform.ts';
import { createPlatformA, type PlatformAOptions } from './platformA/adapter.ts';
import { createPlatformB, type PlatformBOptions } from './platformB/adapter.ts';

/** Adapter settings a test or benchmark may override (timeouts, clock, sleep). */
export type PlatformOverrides = {
  platformA?: Partial<PlatformAOptions>;
  platformB?: Partial<PlatformBOptions>;
};

/**
 * One entry per publishing platform: whether the deployment has its app credentials, and how
 * to build its adapter from the configuration. Adding a platform adds an entry here, its folder,
 * its config variables and its sandbox; channels, publishing and metrics only see `Platform`.
 */
interface PlatformEntry {
  id: string;
  configured(config: Config): boolean;
  create(config: Config, overrides: PlatformOverrides): Platform;
}

const ENTRIES: readonly PlatformEntry[] = [
  {
    id: 'platformA',
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
  {
    id: 'platformB',
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
        ...overrides.platformB,
      }),
  },
];

/** Every platform Postkit can publish to, configured or not (channel routes exist for each). */
export const PUBLISHING_PLATFORM_IDS: readonly string[] = ENTRIES.map((e) => e.id);

/** Whether the deployment has platformA app credentials (all three are needed). */
export const platformAConfigured = (config: Config) => ENTRIES[0]!.configured(config);

/** Whether the deployment has this platform's app credentials. */
export function platformConfigured(config: Config, id: string): boolean {
  return ENTRIES.find((e) => e.id === id)?.configured(config) ?? false;
}

/**
 * The publishing platforms this deployment can use, keyed by platform id. A platform whose
 * app credentials are missing is absent (its channel routes answer 503).
 */
export function createPlatforms(config: Config, overrides: PlatformOverrides = {}): Map<string, Platform> {
  const platforms = new Map<string, Platform>();
  for (const entry of ENTRIES) {
    if (entry.configured(config)) platforms.set(entry.id, entry.create(config, overrides));
  }
  return platforms;
}

import type { Config } from '../config/config.ts';
import type { Platform } from './platform.ts';
import { createPlatformA, type PlatformAOptions } from './platformA/adapter.ts';

/** Adapter settings a test or benchmark may override (timeouts, clock, sleep). */
export type PlatformOverrides = { platformA?: Partial<PlatformAOptions> };

/** Whether the deployment has platformA app credentials (all three are needed). */
export function platformAConfigured(config: Config): boolean {
  return Boolean(
    config.PLATFORMA_CLIENT_ID && config.PLATFORMA_CLIENT_SECRET && config.PLATFORMA_REDIRECT_URI,
  );
}

/**
 * The publishing platforms this deployment can use, keyed by platform id. A platform whose
 * app credentials are missing is absent (its channel routes answer 503).
 */
export function createPlatforms(config: Config, overrides: PlatformOverrides = {}): Map<string, Platform> {
  const platforms = new Map<string, Platform>();
  if (platformAConfigured(config)) {
    platforms.set(
      'platformA',
      createPlatformA({
        clientId: config.PLATFORMA_CLIENT_ID!,
        clientSecret: config.PLATFORMA_CLIENT_SECRET!,
        redirectUri: config.PLATFORMA_REDIRECT_URI!,
        authUrl: config.PLATFORMA_AUTH_URL,
        apiUrl: config.PLATFORMA_API_URL,
        apiVersion: config.PLATFORMA_API_VERSION,
        pkce: config.PLATFORMA_PKCE,
        backoffScale: config.PLATFORMA_BACKOFF_SCALE,
        ...overrides.platformA,
      }),
    );
  }
  return platforms;
}

import { setTimeout as delay } from 'node:timers/promises';
import type { RetryPolicy } from './http.ts';

/** Everything the platformA adapter needs; `createPlatforms(config)` fills it from Config. */
export interface PlatformAOptions {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** e.g. https://www.linkedin.com/oauth/v2 (PLATFORMA_AUTH_URL) */
  authUrl: string;
  /** e.g. https://api.linkedin.com (PLATFORMA_API_URL) */
  apiUrl: string;
  /** LinkedIn-Version header, YYYYMM (PLATFORMA_API_VERSION). */
  apiVersion: string;
  /** Send the PKCE challenge and verifier (PLATFORMA_PKCE). When false they are dropped. */
  pkce: boolean;
  /**
   * The public address of a published post, `{id}` standing for its (URL-encoded) id
   * (PLATFORMA_POST_URL); null: the live site's. The sandbox sets its own post pages here.
   */
  postUrl?: string | null;
  /** Multiplies retry and video-poll delays (PLATFORMA_BACKOFF_SCALE). Default 1. */
  backoffScale?: number;
  /** Total attempts for reads, uploads and refreshes (the first included). Default 4. */
  retryAttempts?: number;
  /** Deadline of one API or OAuth request. Default 30 s. */
  requestTimeoutMs?: number;
  /** Deadline of one upload PUT (an image, a document, or one video byte range). Default 5 min. */
  uploadTimeoutMs?: number;
  /** How long a video may stay in processing before the publish gives up (retryably). Default 30 min. */
  videoTimeoutMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface ResolvedOptions extends Required<PlatformAOptions> {
  retry: RetryPolicy;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function resolveOptions(options: PlatformAOptions): ResolvedOptions {
  const sleep = options.sleep ?? ((ms: number) => delay(ms).then(() => undefined));
  const backoffScale = options.backoffScale ?? 1;
  const retryAttempts = options.retryAttempts ?? 4;
  return {
    ...options,
    authUrl: trimSlash(options.authUrl),
    apiUrl: trimSlash(options.apiUrl),
    backoffScale,
    retryAttempts,
    postUrl: options.postUrl ?? null,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    uploadTimeoutMs: options.uploadTimeoutMs ?? 300_000,
    videoTimeoutMs: options.videoTimeoutMs ?? 30 * 60_000,
    now: options.now ?? Date.now,
    sleep,
    retry: { attempts: retryAttempts, baseDelayMs: 500, maxDelayMs: 8_000, scale: backoffScale, sleep },
  };
}

/** Headers of every versioned REST call. */
export function restHeaders(opts: ResolvedOptions, accessToken: string): Record<string, string> {
  return {
    authorization: `Bearer ${accessToken}`,
    'linkedin-version': opts.apiVersion,
    'x-restli-protocol-version': '2.0.0',
  };
}

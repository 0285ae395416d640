import { setTimeout as delay } from 'node:timers/promises';

/** Everything the platformB adapter needs; `createPlatforms(config)` fills it from Config. */
export interface PlatformBOptions {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** e.g. https://x.com/i/oauth2 (PLATFORMB_AUTH_URL); the consent page is `{authUrl}/authorize`. */
  authUrl: string;
  /** e.g. https://api.x.com/2/oauth2/token (PLATFORMB_TOKEN_URL), the whole URL. */
  tokenUrl: string;
  /** e.g. https://api.x.com (PLATFORMB_API_URL) */
  apiUrl: string;
  /**
   * The public address of a published post, `{id}` standing for its (URL-encoded) id
   * (PLATFORMB_POST_URL); null: the live site's. The sandbox sets its own post pages here.
   */
  postUrl?: string | null;
  /** Multiplies retry and media-poll delays (PLATFORMB_BACKOFF_SCALE). Default 1. */
  backoffScale?: number;
  /** Total attempts for reads and uploads (the first included). Default 4. */
  retryAttempts?: number;
  /** The longest a read or upload waits for a 429's reset before giving up (retryably). Default 60 s. */
  maxRateLimitWaitMs?: number;
  /** Deadline of one API or OAuth request. Default 30 s. */
  requestTimeoutMs?: number;
  /** Deadline of one chunk upload. Default 5 min. */
  uploadTimeoutMs?: number;
  /** Bytes per media append (the platform takes at most 5 MB). Default 4 MiB. */
  chunkBytes?: number;
  /** How long media may stay in processing before the publish gives up (retryably). Default 30 min. */
  mediaTimeoutMs?: number;
  /**
   * How many of a member's most recent posts the timeline lists (PLATFORMB_TIMELINE_LIMIT; the
   * live platform: 3,200): crash recovery cannot see past them. Default 3,200.
   */
  timelineLimit?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export type ResolvedOptions = Required<PlatformBOptions>;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function resolveOptions(options: PlatformBOptions): ResolvedOptions {
  return {
    ...options,
    authUrl: trimSlash(options.authUrl),
    tokenUrl: options.tokenUrl,
    apiUrl: trimSlash(options.apiUrl),
    backoffScale: options.backoffScale ?? 1,
    postUrl: options.postUrl ?? null,
    retryAttempts: options.retryAttempts ?? 4,
    maxRateLimitWaitMs: options.maxRateLimitWaitMs ?? 60_000,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    uploadTimeoutMs: options.uploadTimeoutMs ?? 300_000,
    chunkBytes: Math.min(options.chunkBytes ?? 4 * 1024 * 1024, 5 * 1024 * 1024),
    mediaTimeoutMs: options.mediaTimeoutMs ?? 30 * 60_000,
    timelineLimit: options.timelineLimit ?? 3_200,
    now: options.now ?? Date.now,
    sleep: options.sleep ?? ((ms: number) => delay(ms).then(() => undefined)),
  };
}

export const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

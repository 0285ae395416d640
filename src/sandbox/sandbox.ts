import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { adminRoutes } from './admin.ts';
import { analyticsRoutes } from './analytics.ts';
import { assetRoutes } from './assets.ts';
import { authorizeRoutes } from './authorize.ts';
import { commentRoutes } from './comments.ts';
import { type FaultSpec, SandboxFaults, type SandboxRoute } from './faults.ts';
import { drain, HttpError, type Route, type SandboxCtx, type SandboxSettings, sendJson } from './http.ts';
import { sendBFault } from './platformB/http.ts';
import {
  createPlatformBLane,
  type PlatformBFaults,
  type PlatformBRoute,
  type PlatformBSandboxOptions,
  type PlatformBState,
  platformBRoutes,
} from './platformB/index.ts';
import { postPageRoutes } from './post-pages.ts';
import { postRoutes } from './posts.ts';
import { type MetricCounts, type SandboxMember, type SandboxPost, SandboxState } from './state.ts';
import { tokenRoutes } from './token.ts';
import { videoRoutes } from './videos.ts';

export { type FaultSpec, SANDBOX_ROUTES, SandboxFaults, type SandboxRoute } from './faults.ts';
export type { MetricCounts, SandboxAsset, SandboxMember, SandboxPost, SandboxToken } from './state.ts';
export { SandboxState } from './state.ts';

export interface SandboxOptions {
  /** Default 0 (any free port). */
  port?: number;
  host?: string;
  /** Redirect straight back with a code (default true); false shows the consent page with Approve. */
  autoApprove?: boolean;
  clientId?: string;
  clientSecret?: string;
  /** Registered redirect URIs; default: any http(s) URI is accepted. */
  redirectUris?: string[];
  /** Refuse authorization requests without a PKCE challenge. Default false (PKCE is verified whenever sent). */
  requirePkce?: boolean;
  /** Access-token life (default 5184000 = 60 days). */
  accessTokenTtlSeconds?: number;
  /** Issue refresh tokens (default true, like an approved app). */
  refreshTokens?: boolean;
  refreshTokenTtlSeconds?: number;
  /** Size of each video byte range (default 4 MiB). */
  videoPartSize?: number;
  /** Video status reads answered PROCESSING after finalize before AVAILABLE (default 1). */
  videoProcessingPolls?: number;
  /** Refuse a member's second post with identical commentary as DUPLICATE_POST (default false). */
  rejectDuplicates?: boolean;
  /** Oldest LinkedIn-Version accepted (default 202401); newer than the current month is refused too. */
  minVersion?: string;
  /** The first member (who approves consents). */
  member?: Partial<SandboxMember>;
  /** Analytics counts of each new post (default: deterministic per post, LINK_CLICKS without data). */
  metrics?: (post: SandboxPost) => MetricCounts;
  /** The platformB emulator served on the same port (its own client, token life, limits). */
  platformB?: PlatformBSandboxOptions;
  now?: () => number;
}

/** platformB on the same server: `/i/oauth2`, `/2/oauth2/token` and `/2/...` (PLATFORM_B.md). */
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
  /** The PLATFORMB_* variables that point Postkit at this sandbox. */
  env(redirectUri?: string): Record<string, string>;
}

export interface Sandbox {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** PLATFORMA_AUTH_URL: `${url}/oauth/v2` */
  authUrl: string;
  /** PLATFORMA_API_URL: `url` */
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  state: SandboxState;
  faults: SandboxFaults;
  platformB: PlatformBSandbox;
  /** The PLATFORMA_* variables that point Postkit at this sandbox. */
  env(redirectUri?: string): Record<string, string>;
  close(): Promise<void>;
}

const ROUTES: Route[] = [
  ...authorizeRoutes,
  ...tokenRoutes,
  ...postRoutes,
  ...commentRoutes,
  ...assetRoutes,
  ...videoRoutes,
  ...analyticsRoutes,
  ...adminRoutes,
  ...platformBRoutes,
  ...postPageRoutes,
];

/** Starts the platformA emulator on 127.0.0.1 (in-process; `npm run sandbox` wraps it). */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? Date.now;
  const settings: SandboxSettings = {
    clientId: options.clientId ?? 'sandbox-client',
    clientSecret: options.clientSecret ?? 'sandbox-secret',
    autoApprove: options.autoApprove ?? true,
    redirectUris: options.redirectUris ?? null,
    requirePkce: options.requirePkce ?? false,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 5_184_000,
    refreshTokens: options.refreshTokens ?? true,
    refreshTokenTtlSeconds: options.refreshTokenTtlSeconds ?? 31_536_000,
    videoPartSize: options.videoPartSize ?? 4 * 1024 * 1024,
    videoProcessingPolls: options.videoProcessingPolls ?? 1,
    rejectDuplicates: options.rejectDuplicates ?? false,
    minVersion: options.minVersion ?? '202401',
  };
  const state = new SandboxState({ now, member: options.member, metrics: options.metrics });
  const faults = new SandboxFaults(state, now);
  const platformB = createPlatformBLane(options.platformB ?? {}, now);
  const ctx: SandboxCtx = { state, faults, settings, platformB, baseUrl: '', now };

  const server = createServer((req, res) => {
    dispatch(ctx, req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { status: 500, message: 'Internal sandbox error' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  ctx.baseUrl = url;

  return {
    url,
    authUrl: `${url}/oauth/v2`,
    apiUrl: url,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    state,
    faults,
    platformB: {
      authUrl: `${url}/i/oauth2`,
      tokenUrl: `${url}/2/oauth2/token`,
      apiUrl: url,
      clientId: platformB.settings.clientId,
      clientSecret: platformB.settings.clientSecret,
      state: platformB.state,
      faults: platformB.faults,
      env: (redirectUri = 'http://127.0.0.1:8080/v1/channels/platformB/callback') => ({
        PLATFORMB_CLIENT_ID: platformB.settings.clientId,
        PLATFORMB_CLIENT_SECRET: platformB.settings.clientSecret,
        PLATFORMB_REDIRECT_URI: redirectUri,
        PLATFORMB_AUTH_URL: `${url}/i/oauth2`,
        PLATFORMB_TOKEN_URL: `${url}/2/oauth2/token`,
        PLATFORMB_API_URL: url,
        PLATFORMB_POST_URL: `${url}/_sandbox/platformB/posts/{id}`,
      }),
    },
    env: (redirectUri = 'http://127.0.0.1:8080/v1/channels/platformA/callback') => ({
      PLATFORMA_CLIENT_ID: settings.clientId,
      PLATFORMA_CLIENT_SECRET: settings.clientSecret,
      PLATFORMA_REDIRECT_URI: redirectUri,
      PLATFORMA_AUTH_URL: `${url}/oauth/v2`,
      PLATFORMA_API_URL: url,
      PLATFORMA_POST_URL: `${url}/_sandbox/platformA/posts/{id}`,
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function dispatch(ctx: SandboxCtx, req: IncomingMessage, res: ServerResponse) {
  let url: URL;
  try {
    url = new URL(req.url ?? '/', ctx.baseUrl);
  } catch {
    await drain(req);
    return sendJson(res, 400, { status: 400, message: 'Bad request URL' });
  }
  let params: string[] = [];
  const route = ROUTES.find((r) => {
    if (r.method !== req.method || (r.query && !r.query(url))) return false;
    const m = r.path.exec(url.pathname);
    if (m) params = m.slice(1);
    return Boolean(m);
  });
  if (!route) {
    await drain(req);
    return sendJson(res, 404, { status: 404, message: `No resource ${req.method} ${url.pathname}` });
  }
  try {
    params = params.map((p) => decodeURIComponent(p));
  } catch {
    await drain(req);
    return sendJson(res, 400, { status: 400, message: 'Malformed URL encoding' });
  }

  if (route.name !== 'admin' && route.name !== 'page') {
    const fault = await faultFor(ctx, route, req.method ?? 'GET', url.pathname);
    if (fault) {
      await drain(req);
      if (fault.drop) {
        req.socket.destroy();
        return;
      }
      if (route.lane === 'platformB') return sendBFault(res, route.name as PlatformBRoute, fault, ctx.now());
      return sendFault(res, route.name as SandboxRoute, fault);
    }
  }

  try {
    await route.handle({ req, res, url, params, ctx });
  } catch (err) {
    await drain(req).catch(() => {});
    if (res.headersSent || res.destroyed) return;
    if (err instanceof HttpError) return sendJson(res, err.status, err.body, err.headers);
    process.stderr.write(
      `sandbox: ${req.method} ${url.pathname} failed: ${err instanceof Error ? err.stack : String(err)}\n`,
    );
    sendJson(res, 500, { status: 500, message: 'Internal sandbox error' });
  }
}

/** Counts the request, waits any injected latency and takes the route's next fault, in its platform's lane. */
async function faultFor(ctx: SandboxCtx, route: Route, method: string, path: string) {
  if (route.lane === 'platformB') {
    const name = route.name as PlatformBRoute;
    ctx.platformB.state.recordRequest(name);
    const wait = ctx.platformB.faults.latencyFor(name);
    if (wait > 0) await delay(wait);
    return ctx.platformB.faults.takeFault(name);
  }
  const name = route.name as SandboxRoute;
  ctx.state.recordRequest(method, name, path);
  const wait = ctx.faults.latencyFor(name);
  if (wait > 0) await delay(wait);
  return ctx.faults.takeFault(name);
}

const TOKEN_CODES: Record<string, number> = {
  INVALID_ACCESS_TOKEN: 65600,
  REVOKED_ACCESS_TOKEN: 65601,
  EXPIRED_ACCESS_TOKEN: 65602,
};

/** An injected failure, shaped like the platform's own answer for that status. */
function sendFault(res: ServerResponse, route: SandboxRoute, fault: FaultSpec) {
  const status = fault.status!;
  if (route === 'token' || route === 'authorize') {
    const error =
      fault.code ??
      (status === 401
        ? 'invalid_client'
        : status === 429
          ? 'rate_limited'
          : status >= 500
            ? 'server_error'
            : 'invalid_request');
    return sendJson(res, status, { error, error_description: fault.message ?? `Injected ${status}` });
  }
  const defaults: Record<number, [string, string, number?]> = {
    401: ['INVALID_ACCESS_TOKEN', 'Invalid access token'],
    403: ['ACCESS_DENIED', 'Not enough permissions to access this resource', 100],
    422: ['UNPROCESSABLE_ENTITY', 'Unprocessable entity'],
    426: ['NONEXISTENT_VERSION', 'Requested version is not active'],
    429: ['TOO_MANY_REQUESTS', 'Resource level throttle limit for calls to this resource is reached'],
  };
  const [code, message, serviceCode] = defaults[status] ?? [
    undefined,
    status >= 500 ? 'Internal Server Error' : `Injected ${status}`,
  ];
  const finalCode = fault.code === null ? undefined : (fault.code ?? code);
  sendJson(res, status, {
    status,
    ...(fault.serviceErrorCode !== undefined
      ? { serviceErrorCode: fault.serviceErrorCode }
      : finalCode && TOKEN_CODES[finalCode]
        ? { serviceErrorCode: TOKEN_CODES[finalCode] }
        : serviceCode
          ? { serviceErrorCode: serviceCode }
          : {}),
    ...(finalCode ? { code: finalCode } : {}),
    message: fault.message ?? message,
  });
}

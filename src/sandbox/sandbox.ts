import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { adminRoutes } from './admin.ts';
import { analyticsRoutes } from './analytics.ts';
import { assetRoutes } from './assets.ts';
import { authorizeRoutes } from './authorize.ts';
import { type FaultSpec, SandboxFaults, type SandboxRoute } from './faults.ts';
import { drain, HttpError, type Route, type SandboxCtx, type SandboxSettings, sendJson } from './http.ts';
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
  now?: () => number;
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
  /** The PLATFORMA_* variables that point Postkit at this sandbox. */
  env(redirectUri?: string): Record<string, string>;
  close(): Promise<void>;
}

const ROUTES: Route[] = [
  ...authorizeRoutes,
  ...tokenRoutes,
  ...postRoutes,
  ...assetRoutes,
  ...videoRoutes,
  ...analyticsRoutes,
  ...adminRoutes,
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
  const ctx: SandboxCtx = { state, faults, settings, baseUrl: '', now };

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
    env: (redirectUri = 'http://127.0.0.1:8080/v1/channels/platformA/callback') => ({
      PLATFORMA_CLIENT_ID: settings.clientId,
      PLATFORMA_CLIENT_SECRET: settings.clientSecret,
      PLATFORMA_REDIRECT_URI: redirectUri,
      PLATFORMA_AUTH_URL: `${url}/oauth/v2`,
      PLATFORMA_API_URL: url,
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
    const name = route.name as SandboxRoute;
    ctx.state.recordRequest(req.method ?? 'GET', name, url.pathname);
    const wait = ctx.faults.latencyFor(name);
    if (wait > 0) await delay(wait);
    const fault = ctx.faults.takeFault(name);
    if (fault) {
      await drain(req);
      if (fault.drop) {
        req.socket.destroy();
        return;
      }
      return sendFault(res, name, fault);
    }
  }

  try {
    await route.handle({ req, res, url, params, ctx });
  } catch (err) {
    await drain(req).catch(() => {});
    if (res.headersSent || res.destroyed) return;
    if (err instanceof HttpError) return sendJson(res, err.status, err.body);
    process.stderr.write(
      `sandbox: ${req.method} ${url.pathname} failed: ${err instanceof Error ? err.stack : String(err)}\n`,
    );
    sendJson(res, 500, { status: 500, message: 'Internal sandbox error' });
  }
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

import { type MemberIdentity, PlatformError, type TokenSet } from '../platform.ts';
import { type HttpCall, sendExpecting, withRetries } from './http.ts';
import type { ResolvedOptions } from './options.ts';

/** Member posting plus post analytics (PLATFORM_A.md). */
export const PLATFORM_A_SCOPES = [
  'openid',
  'profile',
  'email',
  'w_member_social',
  'r_member_postAnalytics',
] as const;

export const authorRefFor = (platformUserId: string) => `urn:li:person:${platformUserId}`;

export function authorizationUrl(
  opts: ResolvedOptions,
  input: { state: string; codeChallenge: string | null },
): { url: string } {
  const params: [string, string][] = [
    ['response_type', 'code'],
    ['client_id', opts.clientId],
    ['redirect_uri', opts.redirectUri],
    ['state', input.state],
    ['scope', PLATFORM_A_SCOPES.join(' ')],
  ];
  if (opts.pkce && input.codeChallenge) {
    params.push(['code_challenge', input.codeChallenge], ['code_challenge_method', 'S256']);
  }
  // encodeURIComponent, not URLSearchParams: the scope separator goes out as %20, as documented.
  const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  return { url: `${opts.authUrl}/authorization?${query}` };
}

export async function exchangeCode(
  opts: ResolvedOptions,
  input: { code: string; codeVerifier: string | null },
): Promise<TokenSet> {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: input.code,
    client_id: opts.clientId,
    client_secret: opts.clientSecret,
    redirect_uri: opts.redirectUri,
  });
  if (opts.pkce && input.codeVerifier) form.set('code_verifier', input.codeVerifier);
  // A code is single-use: the exchange is never retried.
  return tokenRequest(opts, 'exchange the authorization code', form, [input.code, input.codeVerifier], null);
}

export async function refresh(opts: ResolvedOptions, input: { refreshToken: string }): Promise<TokenSet> {
  const form = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: input.refreshToken,
    client_id: opts.clientId,
    client_secret: opts.clientSecret,
  });
  // Refreshing is repeatable (the refresh token does not rotate), so transient failures retry.
  return withRetries(opts.retry, () =>
    tokenRequest(opts, 'refresh the access token', form, [input.refreshToken], input.refreshToken),
  );
}

interface TokenResponse {
  access_token?: unknown;
  expires_in?: unknown;
  refresh_token?: unknown;
  refresh_token_expires_in?: unknown;
  scope?: unknown;
}

async function tokenRequest(
  opts: ResolvedOptions,
  what: string,
  form: URLSearchParams,
  secrets: (string | null)[],
  previousRefreshToken: string | null,
): Promise<TokenSet> {
  const call: HttpCall = {
    kind: 'oauth',
    what,
    method: 'POST',
    url: `${opts.authUrl}/accessToken`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form.toString(),
    timeoutMs: opts.requestTimeoutMs,
    secrets: [opts.clientSecret, ...secrets],
  };
  const answer = await sendExpecting(call, [200]);
  const body = (answer.json ?? {}) as TokenResponse;
  if (typeof body.access_token !== 'string' || body.access_token === '') {
    throw new PlatformError(
      'exchange_failed',
      `platformA answered the request to ${what} without an access token.`,
      {
        status: answer.status,
      },
    );
  }
  const now = opts.now();
  const seconds = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null);
  const expiresIn = seconds(body.expires_in);
  const refreshIn = seconds(body.refresh_token_expires_in);
  const refreshToken =
    typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : null;
  return {
    accessToken: body.access_token,
    expiresAt: expiresIn === null ? null : now + expiresIn * 1000,
    refreshToken: refreshToken ?? previousRefreshToken,
    refreshExpiresAt: refreshIn === null ? null : now + refreshIn * 1000,
    scopes: parseScopes(body.scope),
  };
}

/** The platform answers scopes space- or comma-separated. */
export function parseScopes(scope: unknown): string[] {
  if (typeof scope !== 'string') return [];
  return [...new Set(scope.split(/[\s,]+/).filter(Boolean))];
}

export async function identify(
  opts: ResolvedOptions,
  input: { accessToken: string },
): Promise<MemberIdentity> {
  const call: HttpCall = {
    kind: 'read',
    what: 'read the member profile',
    method: 'GET',
    url: `${opts.apiUrl}/v2/userinfo`,
    headers: { authorization: `Bearer ${input.accessToken}`, accept: 'application/json' },
    timeoutMs: opts.requestTimeoutMs,
    secrets: [input.accessToken],
  };
  const answer = await withRetries(opts.retry, () => sendExpecting(call, [200]));
  const info = (answer.json ?? {}) as Record<string, unknown>;
  if (typeof info.sub !== 'string' || info.sub === '') {
    throw new PlatformError('bad_request', 'platformA userinfo answered without a member id (sub).', {
      status: answer.status,
    });
  }
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
  const name =
    text(info.name) ?? ([text(info.given_name), text(info.family_name)].filter(Boolean).join(' ') || null);
  return { platformUserId: info.sub, authorRef: authorRefFor(info.sub), handle: name ?? text(info.email) };
}

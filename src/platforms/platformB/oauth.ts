import { type MemberIdentity, PlatformError, type TokenSet } from '../platform.ts';
import type { HttpCall } from '../transport.ts';
import { dataOf, getCall, sendExpecting, withRetries } from './http.ts';
import type { ResolvedOptions } from './options.ts';

/** Posting, reading, offline access (refresh tokens) and media uploads (PLATFORM_B.md). */
export const PLATFORM_B_SCOPES = [
  'tweet.read',
  'tweet.write',
  'users.read',
  'offline.access',
  'media.write',
] as const;

/** platformB posts as the member's user id (it is also the id the recovery lookup lists). */
export const authorRefFor = (platformUserId: string) => platformUserId;

export function authorizationUrl(
  opts: ResolvedOptions,
  input: { state: string; codeChallenge: string | null },
): { url: string } {
  if (!input.codeChallenge) {
    // platformB always needs PKCE; a connect without a challenge is a bug of ours.
    throw new PlatformError('misconfigured', 'platformB authorization needs a PKCE code challenge.');
  }
  const params: [string, string][] = [
    ['response_type', 'code'],
    ['client_id', opts.clientId],
    ['redirect_uri', opts.redirectUri],
    ['state', input.state],
    ['scope', PLATFORM_B_SCOPES.join(' ')],
    ['code_challenge', input.codeChallenge],
    ['code_challenge_method', 'S256'],
  ];
  const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  return { url: `${opts.authUrl}/authorize?${query}` };
}

export function exchangeCode(
  opts: ResolvedOptions,
  input: { code: string; codeVerifier: string | null },
): Promise<TokenSet> {
  if (!input.codeVerifier) {
    throw new PlatformError('exchange_failed', 'platformB needs the PKCE verifier to exchange a code.');
  }
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: opts.redirectUri,
    code_verifier: input.codeVerifier,
    client_id: opts.clientId,
  });
  // A code is single-use: never retried.
  return tokenRequest(opts, 'exchange the authorization code', form, [input.code, input.codeVerifier]);
}

/**
 * Refresh tokens rotate: the answer carries the only refresh token that will work from now on.
 * The call is sent once: if its answer is lost the old token may already be dead, and a second
 * send could not tell; the caller (channel-tokens) seals whatever comes back before anything
 * else and holds the channel's refresh lease so no other process sends the old token.
 */
export function refresh(opts: ResolvedOptions, input: { refreshToken: string }): Promise<TokenSet> {
  const form = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: input.refreshToken,
    client_id: opts.clientId,
  });
  return tokenRequest(opts, 'refresh the access token', form, [input.refreshToken]);
}

interface TokenResponse {
  access_token?: unknown;
  expires_in?: unknown;
  refresh_token?: unknown;
  scope?: unknown;
}

async function tokenRequest(
  opts: ResolvedOptions,
  what: string,
  form: URLSearchParams,
  secrets: string[],
): Promise<TokenSet> {
  // RFC 6749 2.3.1: each part form-encoded, then Basic.
  const basic = Buffer.from(
    `${encodeURIComponent(opts.clientId)}:${encodeURIComponent(opts.clientSecret)}`,
  ).toString('base64');
  const call: HttpCall = {
    kind: 'oauth',
    what,
    method: 'POST',
    url: opts.tokenUrl,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      authorization: `Basic ${basic}`,
    },
    body: form.toString(),
    timeoutMs: opts.requestTimeoutMs,
    secrets: [opts.clientSecret, basic, ...secrets],
  };
  const answer = await sendExpecting(call, [200]);
  const body = (answer.json ?? {}) as TokenResponse;
  if (typeof body.access_token !== 'string' || body.access_token === '') {
    throw new PlatformError(
      'exchange_failed',
      `platformB answered the request to ${what} without an access token.`,
      {
        status: answer.status,
      },
    );
  }
  const expiresIn =
    typeof body.expires_in === 'number' && Number.isFinite(body.expires_in) && body.expires_in > 0
      ? body.expires_in
      : null;
  return {
    accessToken: body.access_token,
    expiresAt: expiresIn === null ? null : opts.now() + expiresIn * 1000,
    refreshToken: typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : null,
    // platformB does not say how long a refresh token lives; it dies when used (rotation).
    refreshExpiresAt: null,
    scopes: typeof body.scope === 'string' ? [...new Set(body.scope.split(/[\s,]+/).filter(Boolean))] : [],
  };
}

export async function identify(
  opts: ResolvedOptions,
  input: { accessToken: string },
): Promise<MemberIdentity> {
  const what = 'read the member profile';
  const answer = await withRetries(opts, () =>
    sendExpecting(getCall(opts, input.accessToken, what, '/2/users/me'), [200]),
  );
  const data = dataOf(answer, what);
  if (typeof data.id !== 'string' || data.id === '') {
    throw new PlatformError('bad_request', 'platformB answered /2/users/me without a user id.', {
      status: answer.status,
    });
  }
  const username = typeof data.username === 'string' && data.username ? data.username : null;
  return {
    platformUserId: data.id,
    authorRef: authorRefFor(data.id),
    handle: username ? `@${username}` : null,
  };
}

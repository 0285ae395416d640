import { createHash } from 'node:crypto';
import { HttpError, oauthError, readForm, sendJson } from '../http.ts';
import { authenticate, requireScope } from './guards.ts';
import type { Exchange, Route } from './lane.ts';
import { randomId } from './state.ts';

/** The token endpoint (authorization_code with PKCE S256, refresh_token) and OpenID userinfo. */

async function token(ex: Exchange) {
  const { settings, state } = ex.ctx;
  if (!(ex.req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) {
    throw oauthError(400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
  }
  const form = await readForm(ex.req);
  if (form.get('client_id') !== settings.clientId || form.get('client_secret') !== settings.clientSecret) {
    throw oauthError(401, 'invalid_client', 'Client authentication failed');
  }
  const now = ex.ctx.now();
  const grant = form.get('grant_type');
  if (grant === 'authorization_code') {
    const code = state.codes.get(form.get('code') ?? '');
    if (!code || code.expiresAt <= now) {
      throw oauthError(400, 'invalid_grant', 'The authorization code is invalid or expired');
    }
    if (code.usedAt !== null) {
      // A replayed code revokes what it minted (RFC 6749 4.1.2).
      for (const t of state.tokens.values()) if (t.code === code.code) t.revoked = true;
      throw oauthError(400, 'invalid_grant', 'The authorization code was already used');
    }
    if (form.get('redirect_uri') !== code.redirectUri) {
      throw oauthError(400, 'invalid_grant', 'redirect_uri does not match the authorization request');
    }
    if (code.codeChallenge !== null) {
      const verifier = form.get('code_verifier');
      if (!verifier) throw oauthError(400, 'invalid_grant', 'code_verifier is required (PKCE)');
      const computed = createHash('sha256').update(verifier, 'ascii').digest('base64url');
      if (computed !== code.codeChallenge)
        throw oauthError(400, 'invalid_grant', 'code_verifier does not match the code challenge');
    }
    code.usedAt = now;
    let refreshToken: string | null = null;
    if (settings.refreshTokens) {
      refreshToken = `sbx_rt_${randomId(24)}`;
      state.refreshTokens.set(refreshToken, {
        refreshToken,
        sub: code.sub,
        scopes: code.scopes,
        expiresAt: now + settings.refreshTokenTtlSeconds * 1000,
        revoked: false,
      });
    }
    const minted = state.mintAccessToken({
      sub: code.sub,
      scopes: code.scopes,
      refreshToken,
      code: code.code,
      expiresInSeconds: settings.accessTokenTtlSeconds,
    });
    return sendJson(
      ex.res,
      200,
      tokenBody(
        minted.accessToken,
        settings.accessTokenTtlSeconds,
        code.scopes,
        refreshToken,
        settings.refreshTokenTtlSeconds,
      ),
    );
  }
  if (grant === 'refresh_token') {
    const rt = state.refreshTokens.get(form.get('refresh_token') ?? '');
    if (!rt) throw oauthError(400, 'invalid_grant', 'The refresh token is invalid');
    if (rt.revoked) throw oauthError(400, 'invalid_grant', 'The refresh token has been revoked by the user');
    if (rt.expiresAt <= now) throw oauthError(400, 'invalid_grant', 'The refresh token has expired');
    const minted = state.mintAccessToken({
      sub: rt.sub,
      scopes: rt.scopes,
      refreshToken: rt.refreshToken,
      code: null,
      expiresInSeconds: settings.accessTokenTtlSeconds,
    });
    // Refreshing does not extend the refresh token's own life.
    const remaining = Math.max(1, Math.floor((rt.expiresAt - now) / 1000));
    return sendJson(
      ex.res,
      200,
      tokenBody(minted.accessToken, settings.accessTokenTtlSeconds, rt.scopes, rt.refreshToken, remaining),
    );
  }
  throw oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
}

function tokenBody(
  accessToken: string,
  expiresIn: number,
  scopes: string[],
  refreshToken: string | null,
  refreshIn: number,
) {
  return {
    access_token: accessToken,
    expires_in: expiresIn,
    ...(refreshToken ? { refresh_token: refreshToken, refresh_token_expires_in: refreshIn } : {}),
    // The live platform answers comma-separated scopes.
    scope: scopes.join(','),
    token_type: 'Bearer',
  };
}

function userinfo(ex: Exchange) {
  const token = authenticate(ex);
  requireScope(token, 'openid', 'userinfo');
  const member = ex.ctx.state.members.get(token.sub);
  if (!member) throw new HttpError(404, { status: 404, message: 'Member not found' });
  const profile = token.scopes.includes('profile');
  sendJson(ex.res, 200, {
    sub: member.sub,
    ...(profile
      ? {
          name: member.name,
          given_name: member.givenName,
          family_name: member.familyName,
          picture: member.picture,
          locale: { country: 'US', language: 'en' },
        }
      : {}),
    ...(token.scopes.includes('email') ? { email: member.email, email_verified: true } : {}),
  });
}

export const tokenRoutes: Route[] = [
  { method: 'POST', path: /^\/oauth\/v2\/accessToken$/, name: 'token', handle: token },
  { method: 'GET', path: /^\/v2\/userinfo$/, name: 'userinfo', handle: userinfo },
];

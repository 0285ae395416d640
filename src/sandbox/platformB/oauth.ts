import { createHash, randomBytes } from 'node:crypto';
import { escapeHtml, oauthError, readForm, redirect, sendHtml, sendJson } from '../http.ts';
import { page } from '../page.ts';
import { authenticate, requireScope } from './http.ts';
import type { Exchange, Route } from './lane.ts';
import { type BConsent, PLATFORM_B_SCOPES } from './state.ts';

/**
 * OAuth 2.0 with PKCE (always), Basic client authentication at the token endpoint, and
 * rotating refresh tokens: each refresh answers a new refresh token and kills the old one. A
 * dead refresh token used again ends the whole family (every token of that consent), which is
 * what a lost refresh race does to a member on the live platform: logged out.
 */

const rid = (n = 18) => randomBytes(n).toString('base64url');
const CODE_TTL_MS = 10 * 60_000;
const KNOWN = new Set(PLATFORM_B_SCOPES);

function back(uri: string, params: Record<string, string | null>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url.toString();
}

function authorize(ex: Exchange) {
  const { settings } = ex.ctx;
  const q = ex.url.searchParams;
  const redirectUri = q.get('redirect_uri');
  const shown = (message: string) =>
    sendHtml(ex.res, 400, page('Authorization error', `<p class="error">${escapeHtml(message)}</p>`));
  if (q.get('client_id') !== settings.clientId) return shown('Unknown client_id.');
  if (!redirectUri || !/^https?:\/\//.test(redirectUri) || !URL.canParse(redirectUri))
    return shown('redirect_uri is missing or not an absolute http(s) URL.');
  const state = q.get('state');
  const fail = (error: string, description: string) =>
    redirect(ex.res, back(redirectUri, { error, error_description: description, state }));
  if (q.get('response_type') !== 'code')
    return fail('unsupported_response_type', 'response_type must be code');
  const scopes = [...new Set((q.get('scope') ?? '').split(' ').filter(Boolean))];
  if (scopes.length === 0 || scopes.some((s) => !KNOWN.has(s)))
    return fail('invalid_scope', 'unknown or missing scope');
  const challenge = q.get('code_challenge');
  if (q.get('code_challenge_method') !== 'S256' || !challenge || !/^[A-Za-z0-9_-]{43}$/.test(challenge))
    return fail('invalid_request', 'PKCE is required: code_challenge (S256)');
  const consent: BConsent = {
    id: rid(12),
    redirectUri,
    state,
    scopes,
    codeChallenge: challenge,
    expiresAt: ex.ctx.now() + 600_000,
  };
  if (ex.ctx.autoApprove) return redirect(ex.res, approve(ex, consent, ex.ctx.state.currentMember));
  ex.ctx.state.consents.set(consent.id, consent);
  const members = [...ex.ctx.state.members.values()]
    .map(
      (m) =>
        `<option value="${escapeHtml(m.id)}">${escapeHtml(m.name)} (@${escapeHtml(m.username)})</option>`,
    )
    .join('');
  sendHtml(
    ex.res,
    200,
    page(
      'Authorize app (platformB)',
      `<p><strong>${escapeHtml(settings.clientId)}</strong> wants to post and read on your sandbox platformB account (${scopes.map(escapeHtml).join(', ')}).</p>
<form method="post" action="${escapeHtml(ex.url.pathname)}/decide"><input type="hidden" name="consent" value="${escapeHtml(consent.id)}">
<p><label>Continue as <select name="member">${members}</select></label></p>
<p><button name="decision" value="approve">Authorize app</button><button name="decision" value="cancel">Cancel</button></p></form>`,
    ),
  );
}

function approve(ex: Exchange, consent: BConsent, userId: string): string {
  const code = `sbxb_code_${rid()}`;
  ex.ctx.state.codes.set(code, {
    code,
    redirectUri: consent.redirectUri,
    userId,
    scopes: consent.scopes,
    codeChallenge: consent.codeChallenge,
    expiresAt: ex.ctx.now() + CODE_TTL_MS,
    usedAt: null,
  });
  return back(consent.redirectUri, { code, state: consent.state });
}

async function decide(ex: Exchange) {
  const form = await readForm(ex.req);
  const { state } = ex.ctx;
  const consent = state.consents.get(form.get('consent') ?? '');
  if (!consent || consent.expiresAt <= ex.ctx.now())
    return sendHtml(ex.res, 400, page('Authorization error', '<p class="error">This request expired.</p>'));
  state.consents.delete(consent.id);
  if (form.get('decision') !== 'approve')
    return redirect(ex.res, back(consent.redirectUri, { error: 'access_denied', state: consent.state }));
  const userId = form.get('member') ?? state.currentMember;
  if (!state.members.has(userId))
    return sendHtml(ex.res, 400, page('Authorization error', '<p>Unknown member.</p>'));
  redirect(ex.res, approve(ex, consent, userId));
}

/** The client from HTTP Basic (confidential client), or 401 invalid_client. */
function client(ex: Exchange): void {
  const { settings } = ex.ctx;
  const match = /^Basic\s+(\S+)$/i.exec(ex.req.headers.authorization ?? '');
  const [id, secret] = match ? Buffer.from(match[1]!, 'base64').toString('utf8').split(':') : [];
  if (
    !id ||
    decodeURIComponent(id) !== settings.clientId ||
    decodeURIComponent(secret ?? '') !== settings.clientSecret
  )
    throw oauthError(401, 'invalid_client', 'Missing or invalid client authentication');
}

async function token(ex: Exchange) {
  client(ex);
  const form = await readForm(ex.req);
  const { state, settings } = ex.ctx;
  const now = ex.ctx.now();
  const grant = form.get('grant_type');
  let minted: ReturnType<typeof state.issueToken>;
  if (grant === 'authorization_code') {
    const code = state.codes.get(form.get('code') ?? '');
    if (!code || code.expiresAt <= now || code.usedAt !== null)
      throw oauthError(400, 'invalid_grant', 'Value passed for the authorization code was invalid.');
    if (form.get('redirect_uri') !== code.redirectUri)
      throw oauthError(400, 'invalid_grant', 'redirect_uri mismatch');
    const verifier = form.get('code_verifier') ?? '';
    if (createHash('sha256').update(verifier, 'ascii').digest('base64url') !== code.codeChallenge)
      throw oauthError(400, 'invalid_grant', 'code_verifier does not match the challenge');
    code.usedAt = now;
    minted = state.issueToken({
      userId: code.userId,
      scopes: code.scopes,
      expiresInSeconds: settings.accessTokenTtlSeconds,
    });
  } else if (grant === 'refresh_token') {
    const rt = state.refreshTokens.get(form.get('refresh_token') ?? '');
    if (!rt || rt.revoked) throw oauthError(400, 'invalid_grant', 'Value passed for the token was invalid.');
    if (rt.usedAt !== null) {
      // Reuse of a rotated-out token: end the family (the member is logged out).
      state.reusedFamilies.add(rt.family);
      state.endFamily(rt.family);
      throw oauthError(400, 'invalid_grant', 'Value passed for the token was invalid.');
    }
    rt.usedAt = now;
    minted = state.issueToken({
      userId: rt.userId,
      scopes: rt.scopes,
      family: rt.family,
      expiresInSeconds: settings.accessTokenTtlSeconds,
    });
  } else {
    throw oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  }
  sendJson(ex.res, 200, {
    token_type: 'bearer',
    access_token: minted.accessToken,
    expires_in: settings.accessTokenTtlSeconds,
    scope: minted.scopes.join(' '),
    ...(minted.refreshToken ? { refresh_token: minted.refreshToken } : {}),
  });
}

async function revoke(ex: Exchange) {
  client(ex);
  const form = await readForm(ex.req);
  const { state } = ex.ctx;
  const value = form.get('token') ?? '';
  const family = state.tokens.get(value)?.family ?? state.refreshTokens.get(value)?.family;
  if (family) state.endFamily(family);
  sendJson(ex.res, 200, { revoked: true });
}

function me(ex: Exchange) {
  const token = authenticate(ex);
  requireScope(token, 'users.read');
  const member = ex.ctx.state.members.get(token.userId)!;
  sendJson(ex.res, 200, { data: { id: member.id, name: member.name, username: member.username } });
}

export const oauthRoutes: Route[] = [
  { method: 'GET', path: /^\/i\/oauth2\/authorize$/, name: 'authorize', handle: authorize },
  { method: 'POST', path: /^\/i\/oauth2\/authorize\/decide$/, name: 'authorize', handle: decide },
  { method: 'POST', path: /^\/2\/oauth2\/token$/, name: 'token', handle: token },
  { method: 'POST', path: /^\/2\/oauth2\/revoke$/, name: 'token', handle: revoke },
  { method: 'GET', path: /^\/2\/users\/me$/, name: 'me', handle: me },
];

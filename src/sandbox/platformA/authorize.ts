import { escapeHtml, readForm, redirect, sendHtml } from '../http.ts';
import { page } from '../page.ts';
import type { Exchange, Route } from './lane.ts';
import { type AConsent, randomId } from './state.ts';

/** OAuth 2.0 authorization: the consent page (or auto-approve) and the redirect back with a code. */

const KNOWN_SCOPES = new Set([
  'openid',
  'profile',
  'email',
  'w_member_social',
  'r_member_postAnalytics',
  'r_member_social',
]);
const CODE_TTL_MS = 30 * 60_000;
const CONSENT_TTL_MS = 10 * 60_000;

function badAuthorizeRequest(ex: Exchange, message: string) {
  sendHtml(ex.res, 400, page('Authorization error', `<p class="error">${escapeHtml(message)}</p>`));
}

function redirectWith(uri: string, params: Record<string, string | null>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url.toString();
}

async function authorize(ex: Exchange) {
  const { settings, state } = ex.ctx;
  const q = ex.url.searchParams;
  const redirectUri = q.get('redirect_uri');
  // Client and redirect errors are shown, never redirected (RFC 6749 4.1.2.1).
  if (q.get('client_id') !== settings.clientId) return badAuthorizeRequest(ex, 'Unknown client_id.');
  if (!redirectUri || !/^https?:\/\//.test(redirectUri) || !URL.canParse(redirectUri)) {
    return badAuthorizeRequest(ex, 'redirect_uri is missing or not an absolute http(s) URL.');
  }
  if (settings.redirectUris && !settings.redirectUris.includes(redirectUri)) {
    return badAuthorizeRequest(ex, 'redirect_uri does not match the registered redirect URLs.');
  }
  const appState = q.get('state');
  const fail = (error: string, description: string) =>
    redirect(ex.res, redirectWith(redirectUri, { error, error_description: description, state: appState }));

  if (q.get('response_type') !== 'code')
    return fail('unsupported_response_type', 'response_type must be code');
  const scopes = [...new Set((q.get('scope') ?? '').split(/[\s,]+/).filter(Boolean))];
  if (scopes.length === 0) return fail('invalid_request', 'scope is required');
  const unknown = scopes.find((s) => !KNOWN_SCOPES.has(s));
  if (unknown)
    return fail('unauthorized_scope_error', `Scope "${unknown}" is not authorized for your application`);
  const challenge = q.get('code_challenge');
  const method = q.get('code_challenge_method');
  if (challenge !== null || method !== null) {
    if (method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
    if (!challenge || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
      return fail('invalid_request', 'code_challenge must be a base64url SHA-256 digest');
    }
  } else if (settings.requirePkce) {
    return fail('invalid_request', 'PKCE is required: send code_challenge and code_challenge_method=S256');
  }

  const consent: AConsent = {
    id: randomId(16),
    redirectUri,
    state: appState,
    scopes,
    codeChallenge: challenge,
    expiresAt: ex.ctx.now() + CONSENT_TTL_MS,
  };
  if (ex.ctx.autoApprove) return redirect(ex.res, approve(ex, consent, state.currentMember));
  state.consents.set(consent.id, consent);
  sendHtml(ex.res, 200, consentPage(ex, consent));
}

/** Issues a code for the member and returns the redirect back to the app. */
function approve(ex: Exchange, consent: AConsent, sub: string): string {
  const code = `sbx_code_${randomId(24)}`;
  ex.ctx.state.codes.set(code, {
    code,
    redirectUri: consent.redirectUri,
    sub,
    scopes: consent.scopes,
    codeChallenge: consent.codeChallenge,
    expiresAt: ex.ctx.now() + CODE_TTL_MS,
    usedAt: null,
  });
  return redirectWith(consent.redirectUri, { code, state: consent.state });
}

async function decide(ex: Exchange) {
  const form = await readForm(ex.req);
  const { state } = ex.ctx;
  const consent = state.consents.get(form.get('consent') ?? '');
  if (!consent || consent.expiresAt <= ex.ctx.now()) {
    return badAuthorizeRequest(
      ex,
      'This authorization request expired or was already answered. Start again from the app.',
    );
  }
  state.consents.delete(consent.id);
  if (form.get('decision') !== 'approve') {
    return redirect(
      ex.res,
      redirectWith(consent.redirectUri, {
        error: 'user_cancelled_authorize',
        error_description: 'The user cancelled the authorization',
        state: consent.state,
      }),
    );
  }
  const sub = form.get('member') ?? state.currentMember;
  if (!state.members.has(sub)) return badAuthorizeRequest(ex, 'Unknown member.');
  redirect(ex.res, approve(ex, consent, sub));
}

function consentPage(ex: Exchange, consent: AConsent): string {
  const { state, settings } = ex.ctx;
  const members = [...state.members.values()]
    .map(
      (m) =>
        `<option value="${escapeHtml(m.sub)}"${m.sub === state.currentMember ? ' selected' : ''}>${escapeHtml(m.name)} (${escapeHtml(m.email)})</option>`,
    )
    .join('');
  const scopes = consent.scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('');
  return page(
    'Sign in and allow access',
    `<p><strong>${escapeHtml(settings.clientId)}</strong> would like to access your sandbox platformA account:</p>
<ul>${scopes}</ul>
<form method="post" action="/oauth/v2/authorization/decide">
  <input type="hidden" name="consent" value="${escapeHtml(consent.id)}">
  <p><label>Continue as <select name="member">${members}</select></label></p>
  <p><button type="submit" name="decision" value="approve">Approve</button>
     <button type="submit" name="decision" value="cancel">Cancel</button></p>
</form>
<p class="muted">You will be sent back to <code>${escapeHtml(consent.redirectUri)}</code>. PKCE: ${consent.codeChallenge ? 'S256' : 'not used'}.</p>`,
  );
}

export const authorizeRoutes: Route[] = [
  { method: 'GET', path: /^\/oauth\/v2\/authorization$/, name: 'authorize', handle: authorize },
  { method: 'POST', path: /^\/oauth\/v2\/authorization\/decide$/, name: 'authorize', handle: decide },
];

import { afterEach, describe, expect, it } from 'vitest';
import { createPkcePair } from '../../src/platforms/pkce.ts';
import { PlatformError } from '../../src/platforms/platform.ts';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/sandbox.ts';
import { adapterFor, authorize, REDIRECT_URI } from './helpers.ts';

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox?.close();
});

async function start(options: SandboxOptions = {}) {
  sandbox = await startSandbox({ port: 0, ...options });
  return sandbox;
}

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  const err = await promise.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(PlatformError);
  return err as PlatformError;
}

describe('platformA OAuth against the sandbox', () => {
  it('builds the authorization URL with state, scopes and an S256 challenge', async () => {
    await start();
    const platform = adapterFor(sandbox);
    const { challenge } = createPkcePair();
    const url = new URL(platform.authorizationUrl({ state: 'st-1', codeChallenge: challenge }).url);
    expect(url.origin + url.pathname).toBe(`${sandbox.platformA.authUrl}/authorization`);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe(sandbox.platformA.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(url.searchParams.get('state')).toBe('st-1');
    expect(url.searchParams.get('scope')).toBe('openid profile email w_member_social r_member_postAnalytics');
    expect(url.search).toContain('scope=openid%20profile%20email%20w_member_social%20r_member_postAnalytics');
    expect(url.searchParams.get('code_challenge')).toBe(challenge);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(platform.scopes).toEqual([
      'openid',
      'profile',
      'email',
      'w_member_social',
      'r_member_postAnalytics',
    ]);
  });

  it('runs the whole code flow with PKCE: consent, exchange, userinfo', async () => {
    const now = 1_900_000_000_000;
    await start({ now: () => now });
    const platform = adapterFor(sandbox, { now: () => now });
    const pkce = createPkcePair();
    const back = await authorize(
      platform.authorizationUrl({ state: 'state-abc', codeChallenge: pkce.challenge }).url,
    );
    expect(back.get('state')).toBe('state-abc');
    const tokens = await platform.exchangeCode({ code: back.get('code')!, codeVerifier: pkce.verifier });
    expect(tokens.expiresAt).toBe(now + 5_184_000 * 1000);
    expect(tokens.refreshToken).toEqual(expect.any(String));
    expect(tokens.refreshExpiresAt).toBe(now + 31_536_000 * 1000);
    // The sandbox answers scopes comma-separated; the adapter splits either way.
    expect(tokens.scopes.sort()).toEqual([
      'email',
      'openid',
      'profile',
      'r_member_postAnalytics',
      'w_member_social',
    ]);

    const member = sandbox.platformA.state.members.get(sandbox.platformA.state.currentMember)!;
    const identity = await platform.identify({ accessToken: tokens.accessToken });
    expect(identity).toEqual({
      platformUserId: member.sub,
      authorRef: `urn:li:person:${member.sub}`,
      handle: member.name,
    });
    expect(platform.authorRef(member.sub)).toBe(`urn:li:person:${member.sub}`);
  });

  it('refuses a wrong PKCE verifier, a missing one, and a replayed code', async () => {
    await start();
    const platform = adapterFor(sandbox);
    const pkce = createPkcePair();
    const other = createPkcePair();
    const code = (
      await authorize(platform.authorizationUrl({ state: 's', codeChallenge: pkce.challenge }).url)
    ).get('code')!;

    const wrong = await failure(platform.exchangeCode({ code, codeVerifier: other.verifier }));
    expect(wrong.kind).toBe('exchange_failed');
    expect(wrong.status).toBe(400);
    expect(wrong.message).toContain('invalid_grant');
    expect(wrong.message).not.toContain(other.verifier);
    expect(wrong.message).not.toContain(code);
    expect(wrong.message).not.toContain(sandbox.platformA.clientSecret);

    const missing = await failure(platform.exchangeCode({ code, codeVerifier: null }));
    expect(missing.kind).toBe('exchange_failed');

    // The right verifier works once; the same code again is refused and revokes what it minted.
    const tokens = await platform.exchangeCode({ code, codeVerifier: pkce.verifier });
    const replay = await failure(platform.exchangeCode({ code, codeVerifier: pkce.verifier }));
    expect(replay.kind).toBe('exchange_failed');
    const revoked = await failure(platform.identify({ accessToken: tokens.accessToken }));
    expect(revoked.kind).toBe('revoked_token');
  });

  it('sends no challenge or verifier when PKCE is off', async () => {
    await start();
    const platform = adapterFor(sandbox, { pkce: false });
    const pkce = createPkcePair();
    const url = platform.authorizationUrl({ state: 's', codeChallenge: pkce.challenge }).url;
    expect(new URL(url).searchParams.has('code_challenge')).toBe(false);
    const code = (await authorize(url)).get('code')!;
    const tokens = await platform.exchangeCode({ code, codeVerifier: pkce.verifier });
    expect(tokens.accessToken).toEqual(expect.any(String));
  });

  it('a sandbox that requires PKCE bounces an authorization without it', async () => {
    await start({ platformA: { requirePkce: true } });
    const platform = adapterFor(sandbox, { pkce: false });
    const back = await authorize(platform.authorizationUrl({ state: 'x', codeChallenge: null }).url);
    expect(back.get('error')).toBe('invalid_request');
    expect(back.get('state')).toBe('x');
    expect(back.has('code')).toBe(false);
  });

  it('shows a consent page; Approve returns a code, Cancel returns user_cancelled_authorize', async () => {
    await start({ autoApprove: false });
    const platform = adapterFor(sandbox);
    const pkce = createPkcePair();
    const decide = async (decision: string) => {
      const page = await fetch(
        platform.authorizationUrl({ state: `s-${decision}`, codeChallenge: pkce.challenge }).url,
      );
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('>Approve</button>');
      expect(html).toContain('w_member_social');
      const consent = /name="consent" value="([^"]+)"/.exec(html)![1]!;
      const res = await fetch(`${sandbox.platformA.authUrl}/authorization/decide`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          consent,
          decision,
          member: sandbox.platformA.state.currentMember,
        }).toString(),
      });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get('location')!);
      expect(location.origin + location.pathname).toBe(REDIRECT_URI);
      return location.searchParams;
    };
    const approved = await decide('approve');
    expect(approved.get('state')).toBe('s-approve');
    const tokens = await platform.exchangeCode({ code: approved.get('code')!, codeVerifier: pkce.verifier });
    expect(tokens.accessToken).toEqual(expect.any(String));

    const cancelled = await decide('cancel');
    expect(cancelled.get('error')).toBe('user_cancelled_authorize');
    expect(cancelled.get('state')).toBe('s-cancel');
    expect(cancelled.has('code')).toBe(false);
  });

  it('refreshes: a new access token, the same refresh token, its life not extended', async () => {
    let now = 1_900_000_000_000;
    await start({ now: () => now });
    const platform = adapterFor(sandbox, { now: () => now });
    const pkce = createPkcePair();
    const code = (
      await authorize(platform.authorizationUrl({ state: 's', codeChallenge: pkce.challenge }).url)
    ).get('code')!;
    const first = await platform.exchangeCode({ code, codeVerifier: pkce.verifier });
    now += 10 * 86_400_000;
    const second = await platform.refresh({ refreshToken: first.refreshToken! });
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.refreshToken).toBe(first.refreshToken);
    expect(second.expiresAt).toBe(now + 5_184_000 * 1000);
    expect(second.refreshExpiresAt).toBe(first.refreshExpiresAt);
    expect((await platform.identify({ accessToken: second.accessToken })).platformUserId).toBe(
      sandbox.platformA.state.currentMember,
    );
  });

  it('maps refused refreshes and bad client credentials to exchange_failed, without secrets', async () => {
    await start();
    const platform = adapterFor(sandbox);
    const token = sandbox.platformA.state.issueToken();
    sandbox.platformA.faults.revoke(token.accessToken);
    const revoked = await failure(platform.refresh({ refreshToken: token.refreshToken! }));
    expect(revoked.kind).toBe('exchange_failed');
    expect(revoked.message).not.toContain(token.refreshToken!);

    const fresh = sandbox.platformA.state.issueToken({ refreshExpiresInSeconds: 60 });
    sandbox.platformA.faults.expire(fresh.accessToken, { refresh: true });
    expect((await failure(platform.refresh({ refreshToken: fresh.refreshToken! }))).kind).toBe(
      'exchange_failed',
    );

    const wrongSecret = adapterFor(sandbox, { clientSecret: 'not-the-secret' });
    const live = sandbox.platformA.state.issueToken();
    const err = await failure(wrongSecret.refresh({ refreshToken: live.refreshToken! }));
    expect(err.kind).toBe('exchange_failed');
    expect(err.status).toBe(401);
    expect(err.message).toContain('invalid_client');
    expect(err.message).not.toContain('not-the-secret');
  });

  it('retries a refresh through 5xx but never retries a code exchange', async () => {
    await start();
    const platform = adapterFor(sandbox);
    const token = sandbox.platformA.state.issueToken();
    sandbox.platformA.faults.failNext('token', 503, { times: 2 });
    const refreshed = await platform.refresh({ refreshToken: token.refreshToken! });
    expect(refreshed.accessToken).toEqual(expect.any(String));
    expect(sandbox.platformA.state.calls('token')).toBe(3);

    const pkce = createPkcePair();
    const code = (
      await authorize(platform.authorizationUrl({ state: 's', codeChallenge: pkce.challenge }).url)
    ).get('code')!;
    sandbox.platformA.faults.failNext('token', 502);
    const err = await failure(platform.exchangeCode({ code, codeVerifier: pkce.verifier }));
    expect(err.kind).toBe('unavailable');
    expect(err.retryable).toBe(true);
    expect(sandbox.platformA.state.calls('token')).toBe(4);

    sandbox.platformA.faults.failNext('token', 429);
    const limited = await failure(platform.exchangeCode({ code, codeVerifier: pkce.verifier }));
    expect(limited.kind).toBe('rate_limited');
  });

  it('refuses an unknown client id or a redirect URI outside the registered list without redirecting', async () => {
    await start({ platformA: { redirectUris: ['http://127.0.0.1:9/elsewhere'] } });
    const platform = adapterFor(sandbox);
    const res = await fetch(platform.authorizationUrl({ state: 's', codeChallenge: null }).url, {
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('redirect_uri does not match');
    const unknown = adapterFor(sandbox, {
      clientId: 'someone-else',
      redirectUri: 'http://127.0.0.1:9/elsewhere',
    });
    const res2 = await fetch(unknown.authorizationUrl({ state: 's', codeChallenge: null }).url, {
      redirect: 'manual',
    });
    expect(res2.status).toBe(400);
    expect(await res2.text()).toContain('Unknown client_id');
  });
});

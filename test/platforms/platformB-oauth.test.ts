import { afterEach, describe, expect, it } from 'vitest';
import { createPkcePair } from '../../src/platforms/pkce.ts';
import { PlatformError } from '../../src/platforms/platform.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.ts';
import { authorize } from './helpers.ts';
import { adapterB, memberB, REDIRECT_URI_B } from './platformB-helpers.ts';

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox?.close();
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a PlatformError');
    },
    (e) => {
      expect(e).toBeInstanceOf(PlatformError);
      return e as PlatformError;
    },
  );

describe('platformB OAuth 2.0 with PKCE against the sandbox', () => {
  it('authorizes with S256, exchanges the code with Basic auth and the verifier, and identifies the member', async () => {
    sandbox = await startSandbox();
    const platform = adapterB(sandbox);
    expect(platform.pkce).toBe(true);
    const pkce = createPkcePair();
    const { url } = platform.authorizationUrl({ state: 'st-1', codeChallenge: pkce.challenge });
    const parsed = new URL(url);
    expect(parsed.origin + parsed.pathname).toBe(`${sandbox.platformB.authUrl}/authorize`);
    expect(parsed.searchParams.get('scope')).toBe(
      'tweet.read tweet.write users.read offline.access media.write',
    );
    expect(parsed.searchParams.get('code_challenge_method')).toBe('S256');
    const back = await authorize(url);
    expect(back.get('state')).toBe('st-1');
    const tokens = await platform.exchangeCode({ code: back.get('code')!, codeVerifier: pkce.verifier });
    expect(tokens.refreshToken).toMatch(/^sbxb_rt_/);
    expect(tokens.expiresAt! - Date.now()).toBeGreaterThan(7_100_000);
    expect(tokens.scopes).toContain('offline.access');
    const me = await platform.identify({ accessToken: tokens.accessToken });
    const member = sandbox.platformB.state.members.get(sandbox.platformB.state.currentMember)!;
    expect(me).toEqual({ platformUserId: member.id, authorRef: member.id, handle: `@${member.username}` });
    expect(new URL(REDIRECT_URI_B).pathname).toBe('/v1/channels/platformB/callback');
  });

  it('refuses a wrong verifier and a replayed code (exchange_failed), and wrong client credentials (misconfigured)', async () => {
    sandbox = await startSandbox();
    const platform = adapterB(sandbox);
    const pkce = createPkcePair();
    const code = (
      await authorize(platform.authorizationUrl({ state: 's', codeChallenge: pkce.challenge }).url)
    ).get('code')!;
    const wrong = await failure(platform.exchangeCode({ code, codeVerifier: createPkcePair().verifier }));
    expect(wrong.kind).toBe('exchange_failed');
    await platform.exchangeCode({ code, codeVerifier: pkce.verifier });
    expect((await failure(platform.exchangeCode({ code, codeVerifier: pkce.verifier }))).kind).toBe(
      'exchange_failed',
    );
    const badClient = adapterB(sandbox, { clientSecret: 'not-the-secret' });
    const refused = await failure(badClient.refresh({ refreshToken: memberB(sandbox).refreshToken }));
    expect(refused.kind).toBe('misconfigured');
    expect(refused.message).not.toContain('not-the-secret');
  });

  it('rotates refresh tokens: each refresh returns a new one, and the old one used again logs the member out', async () => {
    sandbox = await startSandbox();
    const platform = adapterB(sandbox);
    const m = memberB(sandbox);
    const first = await platform.refresh({ refreshToken: m.refreshToken });
    expect(first.refreshToken).not.toBe(m.refreshToken);
    const second = await platform.refresh({ refreshToken: first.refreshToken! });
    expect(second.refreshToken).not.toBe(first.refreshToken);
    await platform.identify({ accessToken: second.accessToken });
    // The lost race: a rotated-out token comes back.
    const reused = await failure(platform.refresh({ refreshToken: m.refreshToken }));
    expect(reused.kind).toBe('exchange_failed');
    expect(reused.message).toContain('invalid_grant');
    expect(reused.message).not.toContain(m.refreshToken);
    expect(sandbox.platformB.state.reusedFamilies.size).toBe(1);
    expect((await failure(platform.identify({ accessToken: second.accessToken }))).kind).toBe(
      'expired_token',
    );
    expect((await failure(platform.refresh({ refreshToken: second.refreshToken! }))).kind).toBe(
      'exchange_failed',
    );
  });

  it('sends a refresh once: a 5xx or a lost answer is not retried (the old token may already be dead)', async () => {
    sandbox = await startSandbox();
    const platform = adapterB(sandbox);
    const m = memberB(sandbox);
    sandbox.platformB.faults.failNext('token', 503);
    expect((await failure(platform.refresh({ refreshToken: m.refreshToken }))).kind).toBe('unavailable');
    sandbox.platformB.faults.dropNext('token');
    expect((await failure(platform.refresh({ refreshToken: m.refreshToken }))).kind).toBe('unavailable');
    expect(sandbox.platformB.state.calls('token')).toBe(2);
    // The refresh token was never spent by the faulted calls.
    expect((await platform.refresh({ refreshToken: m.refreshToken })).refreshToken).toMatch(/^sbxb_rt_/);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { type Platform, PlatformError } from '../../src/platforms/platform.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.ts';
import { adapterFor, connected, mediaFile, pngBytes } from './helpers.ts';

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox?.close();
});

async function setup(scopes?: string[]) {
  sandbox = await startSandbox({ port: 0 });
  const platform = adapterFor(sandbox);
  return { platform, ...(await connected(sandbox, platform, scopes)) };
}

async function failure(promise: Promise<unknown>, ...secrets: string[]): Promise<PlatformError> {
  const err = await promise.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(PlatformError);
  // Token material never appears in what an error says.
  const said = `${String(err)} ${(err as Error).message} ${JSON.stringify(err)} ${String((err as Error).cause ?? '')}`;
  for (const secret of secrets) expect(said).not.toContain(secret);
  return err as PlatformError;
}

const text = (platform: Platform, accessToken: string, authorRef: string, t = 'hello') =>
  platform.publish({ accessToken, authorRef, text: t, media: [] });

describe('platformA error mapping', () => {
  it('401 EXPIRED_ACCESS_TOKEN -> expired_token', async () => {
    const { platform, accessToken, authorRef } = await setup();
    sandbox.platformA.faults.expire(accessToken);
    const err = await failure(text(platform, accessToken, authorRef), accessToken);
    expect(err).toMatchObject({ kind: 'expired_token', status: 401, retryable: false });
    expect(sandbox.platformA.state.calls('createPost')).toBe(1);
  });

  it('401 REVOKED_ACCESS_TOKEN -> revoked_token (publish, identify, metrics)', async () => {
    const { platform, accessToken, authorRef } = await setup();
    const post = await text(platform, accessToken, authorRef);
    sandbox.platformA.faults.revoke(accessToken);
    expect((await failure(text(platform, accessToken, authorRef, 'again'), accessToken)).kind).toBe(
      'revoked_token',
    );
    expect((await failure(platform.identify({ accessToken }), accessToken)).kind).toBe('revoked_token');
    expect(
      (await failure(platform.metrics({ accessToken, platformPostId: post.platformPostId }), accessToken))
        .kind,
    ).toBe('revoked_token');
  });

  it('401 INVALID_ACCESS_TOKEN (unknown token) -> expired_token: refresh once, then reconnect', async () => {
    const { platform } = await setup();
    const bogus = 'sbx_at_this-token-was-never-issued';
    const err = await failure(platform.identify({ accessToken: bogus }), bogus);
    expect(err).toMatchObject({ kind: 'expired_token', status: 401 });
    // Without a code, the serviceErrorCode decides (65600 invalid, 65601 revoked, 65602 expired).
    sandbox.platformA.faults.failNext('userinfo', 401, { code: null, serviceErrorCode: 65601 });
    expect((await failure(platform.identify({ accessToken: bogus }))).kind).toBe('revoked_token');
  });

  it('403 ACCESS_DENIED (missing scope) -> missing_scope, not retried', async () => {
    const { platform, accessToken, authorRef } = await setup(['openid', 'profile', 'email']);
    const err = await failure(text(platform, accessToken, authorRef), accessToken);
    expect(err).toMatchObject({ kind: 'missing_scope', status: 403 });
    expect(sandbox.platformA.state.calls('createPost')).toBe(1);
    const imageErr = await failure(
      platform.publish({ accessToken, authorRef, text: 'x', media: [mediaFile(pngBytes(), 'image/png')] }),
    );
    expect(imageErr.kind).toBe('missing_scope');
    expect(sandbox.platformA.state.calls('initImage')).toBe(1);
  });

  it('metrics without r_member_postAnalytics -> missing_scope', async () => {
    const { platform, accessToken, authorRef } = await setup(['openid', 'profile', 'w_member_social']);
    const post = await text(platform, accessToken, authorRef);
    const err = await failure(platform.metrics({ accessToken, platformPostId: post.platformPostId }));
    expect(err.kind).toBe('missing_scope');
  });

  it('422 DUPLICATE_POST -> duplicate, never retried', async () => {
    const { platform, accessToken, authorRef } = await setup();
    sandbox.platformA.faults.duplicateNext();
    const err = await failure(text(platform, accessToken, authorRef));
    expect(err).toMatchObject({ kind: 'duplicate', status: 422, retryable: false });
    expect(sandbox.platformA.state.calls('createPost')).toBe(1);
    expect(sandbox.platformA.state.posts.size).toBe(0);
  });

  it('a real duplicate (rejectDuplicates) is also `duplicate`', async () => {
    sandbox = await startSandbox({ port: 0, platformA: { rejectDuplicates: true } });
    const platform = adapterFor(sandbox);
    const { accessToken, authorRef } = await connected(sandbox, platform);
    await text(platform, accessToken, authorRef, 'same words');
    expect((await failure(text(platform, accessToken, authorRef, 'same words'))).kind).toBe('duplicate');
  });

  it('other 4xx on create -> bad_request (final, the post was not created)', async () => {
    const { platform, accessToken, authorRef } = await setup();
    sandbox.platformA.faults.failNext('createPost', 400, { message: 'Invalid content' });
    const err = await failure(text(platform, accessToken, authorRef));
    expect(err).toMatchObject({ kind: 'bad_request', status: 400, retryable: false });
    expect(err.message).toContain('Invalid content');
  });

  it('426 NONEXISTENT_VERSION -> misconfigured, naming the setting', async () => {
    const { platform, accessToken, authorRef } = await setup();
    sandbox.platformA.faults.retireVersion('202510');
    const err = await failure(text(platform, accessToken, authorRef));
    expect(err).toMatchObject({ kind: 'misconfigured', status: 426 });
    expect(err.message).toContain('PLATFORMA_API_VERSION');
    expect(err.message).toContain('NONEXISTENT_VERSION');
    const future = adapterFor(sandbox, { apiVersion: '209901' });
    expect((await failure(future.metrics({ accessToken, platformPostId: 'urn:li:share:1' }))).kind).toBe(
      'misconfigured',
    );
  });

  it('reads retry 429 and 5xx with bounded backoff, then give up', async () => {
    const { platform, accessToken } = await setup();
    sandbox.platformA.faults.failNext('userinfo', 429, { times: 2 });
    expect((await platform.identify({ accessToken })).platformUserId).toBe(
      sandbox.platformA.state.currentMember,
    );
    expect(sandbox.platformA.state.calls('userinfo')).toBe(3);

    sandbox.platformA.faults.failNext('userinfo', 503);
    sandbox.platformA.faults.dropNext('userinfo');
    await platform.identify({ accessToken });
    expect(sandbox.platformA.state.calls('userinfo')).toBe(6);

    sandbox.platformA.faults.failAlways('userinfo', 429);
    const limited = await failure(platform.identify({ accessToken }), accessToken);
    expect(limited).toMatchObject({ kind: 'rate_limited', status: 429, retryable: true });
    expect(sandbox.platformA.state.calls('userinfo')).toBe(10);

    sandbox.platformA.faults.clear();
    sandbox.platformA.faults.failAlways('userinfo', 500);
    expect((await failure(platform.identify({ accessToken }))).kind).toBe('unavailable');
    expect(sandbox.platformA.state.calls('userinfo')).toBe(14);
  });

  describe('the create is sent at most once', () => {
    it('5xx on create -> outcome_unknown, not retried', async () => {
      const { platform, accessToken, authorRef } = await setup();
      sandbox.platformA.faults.failNext('createPost', 500);
      const err = await failure(text(platform, accessToken, authorRef), accessToken);
      expect(err).toMatchObject({ kind: 'outcome_unknown', status: 500, retryable: false });
      expect(sandbox.platformA.state.calls('createPost')).toBe(1);
    });

    it('a dropped response after the post was made -> outcome_unknown, one post exists', async () => {
      const { platform, accessToken, authorRef } = await setup();
      sandbox.platformA.faults.dropAfterCreate();
      const err = await failure(text(platform, accessToken, authorRef, 'lost answer'), accessToken);
      expect(err).toMatchObject({ kind: 'outcome_unknown', status: null, retryable: false });
      expect(sandbox.platformA.state.calls('createPost')).toBe(1);
      expect(sandbox.platformA.state.listPosts().map((p) => p.text)).toEqual(['lost answer']);
    });

    it('a create that times out -> outcome_unknown', async () => {
      sandbox = await startSandbox({ port: 0 });
      const platform = adapterFor(sandbox, { requestTimeoutMs: 150 });
      const { accessToken, authorRef } = await connected(sandbox, platform);
      sandbox.platformA.faults.latency(1_000, 'createPost');
      const err = await failure(text(platform, accessToken, authorRef));
      expect(err.kind).toBe('outcome_unknown');
      expect(sandbox.platformA.state.calls('createPost')).toBe(1);
    });

    it('429 on create is a clear rejection: rate_limited, the adapter does not re-send', async () => {
      const { platform, accessToken, authorRef } = await setup();
      sandbox.platformA.faults.failNext('createPost', 429);
      const err = await failure(text(platform, accessToken, authorRef));
      expect(err).toMatchObject({ kind: 'rate_limited', status: 429 });
      expect(sandbox.platformA.state.calls('createPost')).toBe(1);
      expect(sandbox.platformA.state.posts.size).toBe(0);
    });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { PlatformError } from '../../src/platforms/platform.ts';
import { FAILURES } from '../../src/platforms/platformB/errors.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.ts';
import { adapterB, memberB } from './platformB-helpers.ts';

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

async function setup(overrides: Parameters<typeof adapterB>[1] = {}) {
  sandbox = await startSandbox();
  const m = memberB(sandbox);
  const text = (t: string) => ({ accessToken: m.accessToken, authorRef: m.authorRef, text: t, media: [] });
  return { platform: adapterB(sandbox, overrides), m, text };
}

describe('platformB errors, mapped by one table (PLATFORM_B.md "Errors the adapter must map")', () => {
  it('401 is expired_token (the service refreshes once), for reads and creates', async () => {
    const { platform, m, text } = await setup();
    sandbox.platformB.faults.expire(m.accessToken);
    expect((await failure(platform.publish(text('x')))).kind).toBe('expired_token');
    expect((await failure(platform.identify({ accessToken: m.accessToken }))).kind).toBe('expired_token');
    expect(sandbox.platformB.state.listTweets()).toHaveLength(0);
  });

  it('403 duplicate content is final (duplicate); any other 403 is missing_scope', async () => {
    const { platform, m, text } = await setup();
    sandbox.platformB.faults.duplicateNext();
    const dup = await failure(platform.publish(text('same')));
    expect([dup.kind, dup.retryable, dup.status]).toEqual(['duplicate', false, 403]);
    sandbox.platformB.faults.failNext('createTweet', 403, { message: 'Your app is suspended' });
    const forbidden = await failure(platform.publish(text('other')));
    expect(forbidden.kind).toBe('missing_scope');
    expect(forbidden.message).toContain('Your app is suspended');
    const noScope = sandbox.platformB.state.issueToken({ scopes: ['tweet.read', 'users.read'] });
    const refused = await failure(platform.publish({ ...text('x'), accessToken: noScope.accessToken }));
    expect(refused.kind).toBe('missing_scope');
    expect(refused.message).not.toContain(m.accessToken);
  });

  it('a 429 on a create is rate_limited with the reset time, and is not retried', async () => {
    const { platform, text } = await setup();
    sandbox.platformB.faults.rateLimitNext('createTweet', { resetInSeconds: 30 });
    const before = Date.now();
    const limited = await failure(platform.publish(text('x')));
    expect(limited.kind).toBe('rate_limited');
    expect(limited.retryAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 29_000);
    expect(sandbox.platformB.state.calls('createTweet')).toBe(1);
  });

  it('the sandbox limits creates per window and answers the x-rate-limit headers', async () => {
    sandbox = await startSandbox({ platformB: { createLimit: 2 } });
    const m = memberB(sandbox);
    const platform = adapterB(sandbox);
    const post = (t: string) =>
      platform.publish({ accessToken: m.accessToken, authorRef: m.authorRef, text: t, media: [] });
    await post('one');
    await post('two');
    const third = await failure(post('three'));
    expect(third.kind).toBe('rate_limited');
    expect(third.retryAt! - Date.now()).toBeGreaterThan(800_000);
  });

  it('a read waits until x-rate-limit-reset, then succeeds; a reset too far off is thrown', async () => {
    const waits: number[] = [];
    const { platform, m } = await setup({
      sleep: async (ms) => void waits.push(ms),
      maxRateLimitWaitMs: 5_000,
    });
    sandbox.platformB.faults.rateLimitNext('me', { resetInSeconds: 3 });
    await platform.identify({ accessToken: m.accessToken });
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(1_000);
    sandbox.platformB.faults.rateLimitNext('me', { resetInSeconds: 60 });
    expect((await failure(platform.identify({ accessToken: m.accessToken }))).kind).toBe('rate_limited');
  });

  it('5xx and lost answers: reads retry, creates are outcome_unknown and never re-sent', async () => {
    const { platform, m, text } = await setup();
    sandbox.platformB.faults.failNext('me', 503, { times: 2 });
    await platform.identify({ accessToken: m.accessToken });
    expect(sandbox.platformB.state.calls('me')).toBe(3);
    sandbox.platformB.faults.failNext('createTweet', 503, { message: 'Over capacity' });
    const unknown = await failure(platform.publish(text('x')));
    expect([unknown.kind, unknown.retryable]).toEqual(['outcome_unknown', false]);
    expect(unknown.message).toContain('Over capacity');
    sandbox.platformB.faults.dropNext('createTweet');
    expect((await failure(platform.publish(text('y')))).kind).toBe('outcome_unknown');
    expect(sandbox.platformB.state.calls('createTweet')).toBe(2);
  });

  it('a rejected body is bad_request with the platform detail; uploads retry 5xx', async () => {
    const { platform, text } = await setup();
    const err = await failure(platform.publish({ ...text('reply'), replyTo: '123' }));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain('deleted or not visible');
    sandbox.platformB.faults.failNext('mediaInit', 502);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(100)]);
    const file = {
      id: 'm1',
      contentType: 'image/png',
      size: png.length,
      filename: 'a.png',
      open: async () => png,
    };
    await platform.publish({ ...text('img'), media: [file] });
    expect(sandbox.platformB.state.calls('mediaInit')).toBe(2);
  });

  it('the table has one row per documented case, the catch-all last', () => {
    expect(FAILURES.map((r) => r.kind)).toEqual([
      'exchange_failed',
      'misconfigured',
      'outcome_unknown',
      'expired_token',
      'duplicate',
      'missing_scope',
      'rate_limited',
      'unavailable',
      'exchange_failed',
      'bad_request',
    ]);
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { channels } from '../../src/db/schema/index.ts';
import { type ChannelAccess, withChannelAccess } from '../../src/features/channels/channel-access.ts';
import { PLATFORM_VERDICTS } from '../../src/features/channels/channel-problem.ts';
import { decideBeforeCreate } from '../../src/features/posts/publishing/before-create.ts';
import { PlatformError, type PlatformErrorKind } from '../../src/platforms/platform.ts';
import { type ChannelWorld, connected, startChannelWorld } from '../channels/helpers.ts';

/**
 * Issue 23, item 2: publishing decides between a final failure and a retry by the type of what
 * the channel feature throws, not by matching its code strings. Each refusal below is produced
 * for real (the channel's status, the vault, the sandbox platform's answer) through
 * withChannelAccess, and handed to the publisher's decision: if the channel feature threw a
 * problem the publisher no longer recognises, a final channel failure would turn into retries
 * and these fail.
 */

let w: ChannelWorld;
beforeAll(async () => {
  w = await startChannelWorld();
});
afterEach(() => w.sandbox.platformA.faults.clear());
afterAll(async () => {
  await w?.close();
});

async function newChannel() {
  const { apiKey, accountId } = await w.t.signup();
  const channel = await connected(w, apiKey);
  return { accountId, channelId: channel.id, sub: channel.platformUserId };
}

const send = (access: ChannelAccess) =>
  access.platform.publish({
    accessToken: access.accessToken,
    authorRef: access.authorRef,
    text: 'x',
    media: [],
  });

/** What withChannelAccess threw, exactly as the publisher receives it. */
async function thrown(target: { accountId: string; channelId: string }, deps = w.t.service.deps) {
  try {
    await withChannelAccess(deps, target, send);
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

const finalWith = (code: string) => ({ kind: 'fail', reason: 'conflict', code });

describe('the publisher’s decision on what the channel feature throws', () => {
  it('revoked at the platform, then a revoked channel: final channel_revoked both times', async () => {
    const target = await newChannel();
    w.sandbox.platformA.faults.revoke({ sub: target.sub });
    expect(decideBeforeCreate(await thrown(target))).toMatchObject(finalWith('channel_revoked'));
    expect(decideBeforeCreate(await thrown(target))).toMatchObject(finalWith('channel_revoked'));
  });

  it('the token refused as expired twice, then an expired channel: final channel_expired', async () => {
    const target = await newChannel();
    w.sandbox.platformA.faults.failAlways('createPost', 401, { code: 'EXPIRED_ACCESS_TOKEN' });
    expect(decideBeforeCreate(await thrown(target))).toMatchObject(finalWith('channel_expired'));
    w.sandbox.platformA.faults.clear();
    expect(decideBeforeCreate(await thrown(target))).toMatchObject(finalWith('channel_expired'));
  });

  it('a missing scope, then a channel in error: final channel_error', async () => {
    const target = await newChannel();
    w.sandbox.platformA.faults.failNext('createPost', 403);
    expect(decideBeforeCreate(await thrown(target))).toMatchObject(finalWith('channel_error'));
    expect(decideBeforeCreate(await thrown(target))).toMatchObject(finalWith('channel_error'));
  });

  it('a stored token no vault key opens: final channel_error', async () => {
    const a = await newChannel();
    const b = await newChannel();
    const [rowA] = await w.t.service.deps.db.select().from(channels).where(eq(channels.id, a.channelId));
    await w.t.service.deps.db
      .update(channels)
      .set({ accessTokenSealed: rowA!.accessTokenSealed })
      .where(eq(channels.id, b.channelId));
    expect(decideBeforeCreate(await thrown(b))).toMatchObject(finalWith('channel_error'));
  });

  it('another account’s (or a deleted) channel: final channel_error', async () => {
    const mine = await newChannel();
    const other = await newChannel();
    expect(
      decideBeforeCreate(await thrown({ accountId: mine.accountId, channelId: other.channelId })),
    ).toMatchObject(finalWith('channel_error'));
  });

  it('an outage is retried, no sooner than the platform said; a refusal of the content is final publish_failed', async () => {
    const target = await newChannel();
    w.sandbox.platformA.faults.failNext('createPost', 429);
    expect(decideBeforeCreate(await thrown(target))).toMatchObject({ kind: 'retry' });
    w.sandbox.platformA.faults.duplicateNext();
    expect(decideBeforeCreate(await thrown(target))).toMatchObject({
      kind: 'fail',
      reason: 'platform',
      code: 'publish_failed',
    });
    const later = Date.now() + 60_000;
    expect(decideBeforeCreate(new PlatformError('rate_limited', 'slow down', { retryAt: later }))).toEqual({
      kind: 'retry',
      message: 'slow down',
      notBefore: later,
    });
  });

  it('a deployment without its vault key is retried (it may be configured); an internal error too', async () => {
    const target = await newChannel();
    const deps = { ...w.t.service.deps, vault: null };
    expect(decideBeforeCreate(await thrown(target, deps))).toMatchObject({ kind: 'retry' });
    expect(decideBeforeCreate(new Error('a bug'))).toEqual({ kind: 'internal' });
  });

  it('every platform refusal: final exactly when it is a channel verdict or not retryable', () => {
    const kinds: PlatformErrorKind[] = [
      'expired_token',
      'revoked_token',
      'missing_scope',
      'duplicate',
      'rate_limited',
      'unavailable',
      'outcome_unknown',
      'bad_request',
      'misconfigured',
      'exchange_failed',
    ];
    for (const kind of kinds) {
      const err = new PlatformError(kind, `refused: ${kind}`);
      const decision = decideBeforeCreate(err);
      const verdict = PLATFORM_VERDICTS[kind];
      if (verdict) expect(decision, kind).toMatchObject(finalWith(verdict));
      else if (err.retryable) expect(decision.kind, kind).toBe('retry');
      else expect(decision, kind).toMatchObject({ kind: 'fail', code: 'publish_failed' });
    }
  });
});

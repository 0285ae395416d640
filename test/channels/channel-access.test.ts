import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channels, events } from '../../src/db/schema/index.ts';
import { type ChannelAccess, withChannelAccess } from '../../src/features/channels/channel-access.ts';
import { AppError, toAppError } from '../../src/http/errors.ts';
import { PlatformError } from '../../src/platforms/platform.ts';
import { vaultAad } from '../../src/vault/aad.ts';
import { type ChannelWorld, channelRow, connected, startChannelWorld } from './helpers.ts';

const DAY = 86_400_000;

let w: ChannelWorld;
beforeAll(async () => {
  w = await startChannelWorld();
});
afterAll(async () => {
  await w?.close();
});

const rowOf = channelRow;

async function newChannel(world: ChannelWorld = w) {
  const { apiKey, accountId } = await world.t.signup();
  const channel = await connected(world, apiKey);
  return { accountId, channelId: channel.id, sub: channel.platformUserId, apiKey };
}

/** Publishes through the helper and records every access it handed out. */
function publisher(text: string) {
  const seen: ChannelAccess[] = [];
  const fn = async (access: ChannelAccess) => {
    seen.push(access);
    return access.platform.publish({
      accessToken: access.accessToken,
      authorRef: access.authorRef,
      text,
      media: [],
    });
  };
  return { fn, seen };
}

/** The failure as the API answers it: domain errors through the one HTTP mapping, others as thrown. */
async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return toAppError(err) ?? err;
  }
  throw new Error('expected a failure');
}

const postsBy = (world: ChannelWorld, sub: string) =>
  world.sandbox.platformA.state.listPosts().filter((p) => p.author === `urn:li:person:${sub}`);

describe('withChannelAccess', () => {
  it('hands fn the platform, the opened token, the author URN and the public channel', async () => {
    const target = await newChannel();
    const postsBefore = postsBy(w, target.sub).length;
    const { fn, seen } = publisher('Hello from withChannelAccess');
    const published = await withChannelAccess(w.t.service.deps, target, fn);
    expect(published.platformPostId).toMatch(/^urn:li:share:/);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.authorRef).toBe(`urn:li:person:${target.sub}`);
    expect(seen[0]!.channel.id).toBe(target.channelId);
    expect(JSON.stringify(seen[0]!.channel)).not.toMatch(/sealed/i);
    const row = await rowOf(w, target.channelId);
    expect(seen[0]!.accessToken).toBe(
      w.vault.open(row.accessTokenSealed!, vaultAad.channelToken(row.id, 'access')),
    );
    expect(postsBy(w, target.sub)).toHaveLength(postsBefore + 1);
  });

  it('404 for another account’s channel; fn never runs', async () => {
    const target = await newChannel();
    const other = await w.t.signup();
    const { fn, seen } = publisher('nope');
    const err = await caught(
      withChannelAccess(w.t.service.deps, { ...target, accountId: other.accountId }, fn),
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(404);
    expect(seen).toHaveLength(0);
  });

  it('refreshes ahead of expiry before running fn', async () => {
    const target = await newChannel();
    const calls = w.sandbox.platformA.state.calls('token');
    const { fn, seen } = publisher('Refreshed first');
    w.clock.advance(59.5 * DAY);
    try {
      await withChannelAccess(w.t.service.deps, target, fn);
    } finally {
      w.clock.advance(-59.5 * DAY);
    }
    expect(w.sandbox.platformA.state.calls('token')).toBe(calls + 1);
    const row = await rowOf(w, target.channelId);
    expect(seen[0]!.accessToken).toBe(
      w.vault.open(row.accessTokenSealed!, vaultAad.channelToken(row.id, 'access')),
    );
  });

  it('expired_token from the platform: refreshes once and runs fn once more', async () => {
    const target = await newChannel();
    const before = await rowOf(w, target.channelId);
    const oldToken = w.vault.open(
      before.accessTokenSealed!,
      vaultAad.channelToken(target.channelId, 'access'),
    );
    w.sandbox.platformA.faults.expire(oldToken);
    const postsBefore = postsBy(w, target.sub).length;
    const { fn, seen } = publisher('Second try works');
    const published = await withChannelAccess(w.t.service.deps, target, fn);
    expect(published.platformPostId).toBeTruthy();
    expect(seen.map((a) => a.accessToken)).toEqual([oldToken, expect.not.stringMatching(oldToken)]);
    expect(postsBy(w, target.sub)).toHaveLength(postsBefore + 1);
    expect((await rowOf(w, target.channelId)).status).toBe('connected');
  });

  it('expired_token again after the refresh: the channel becomes expired and fn ran only twice', async () => {
    const target = await newChannel();
    w.sandbox.platformA.faults.failAlways('createPost', 401, { code: 'EXPIRED_ACCESS_TOKEN' });
    const { fn, seen } = publisher('Never lands');
    try {
      const err = await caught(withChannelAccess(w.t.service.deps, target, fn));
      expect(err).toBeInstanceOf(PlatformError);
      expect((err as PlatformError).kind).toBe('expired_token');
    } finally {
      w.sandbox.platformA.faults.clear();
    }
    expect(seen).toHaveLength(2);
    expect((await rowOf(w, target.channelId)).status).toBe('expired');
    const next = await caught(withChannelAccess(w.t.service.deps, target, fn));
    expect(next).toMatchObject({ status: 409, code: 'channel_expired' });
    expect(seen).toHaveLength(2);
  });

  it('revoked_token: the channel is revoked, tokens wiped, channel.disconnected recorded; then 409 channel_revoked', async () => {
    const target = await newChannel();
    w.sandbox.platformA.faults.revoke({ sub: target.sub });
    const { fn, seen } = publisher('Revoked');
    const err = await caught(withChannelAccess(w.t.service.deps, target, fn));
    expect(err).toBeInstanceOf(PlatformError);
    expect((err as PlatformError).kind).toBe('revoked_token');
    expect(seen).toHaveLength(1);
    const row = await rowOf(w, target.channelId);
    expect(row).toMatchObject({ status: 'revoked', accessTokenSealed: null, refreshTokenSealed: null });
    const recorded = await w.t.service.deps.db
      .select()
      .from(events)
      .where(and(eq(events.accountId, target.accountId), eq(events.type, 'channel.disconnected')));
    expect(recorded.map((e) => e.payload.reason)).toEqual(['revoked_at_platform']);

    const next = await caught(withChannelAccess(w.t.service.deps, target, fn));
    expect(next).toMatchObject({ status: 409, code: 'channel_revoked' });
    expect(seen).toHaveLength(1);
    // Reconnecting (a new consent) revives the same channel.
    const again = await connected(w, target.apiKey);
    expect(again).toMatchObject({ id: target.channelId, status: 'connected' });
    await withChannelAccess(w.t.service.deps, target, fn);
    expect(seen).toHaveLength(2);
  });

  it('missing_scope (403): the channel becomes error and is not refreshed; then 409 channel_error', async () => {
    const target = await newChannel();
    const calls = w.sandbox.platformA.state.calls('token');
    w.sandbox.platformA.faults.failNext('createPost', 403);
    const { fn } = publisher('No scope');
    const err = await caught(withChannelAccess(w.t.service.deps, target, fn));
    expect((err as PlatformError).kind).toBe('missing_scope');
    expect(w.sandbox.platformA.state.calls('token')).toBe(calls);
    expect((await rowOf(w, target.channelId)).status).toBe('error');
    expect(await caught(withChannelAccess(w.t.service.deps, target, fn))).toMatchObject({
      status: 409,
      code: 'channel_error',
    });
  });

  it('other platform failures and non-platform errors pass through and leave the channel alone', async () => {
    const target = await newChannel();
    w.sandbox.platformA.faults.duplicateNext();
    const dup = await caught(withChannelAccess(w.t.service.deps, target, publisher('dup').fn));
    expect((dup as PlatformError).kind).toBe('duplicate');
    const boom = new Error('not the platform');
    expect(
      await caught(
        withChannelAccess(w.t.service.deps, target, async () => {
          throw boom;
        }),
      ),
    ).toBe(boom);
    const row = await rowOf(w, target.channelId);
    expect(row.status).toBe('connected');
    expect(row.lastError).toBeNull();
  });

  it('a lapsed token with no refresh token: expired, 409 channel_expired, fn never runs', async () => {
    const plain = await startChannelWorld({ sandbox: { platformA: { refreshTokens: false } } });
    try {
      const target = await newChannel(plain);
      const { fn, seen } = publisher('too late');
      plain.clock.advance(61 * DAY);
      const err = await caught(withChannelAccess(plain.t.service.deps, target, fn));
      expect(err).toMatchObject({ status: 409, code: 'channel_expired' });
      expect(seen).toHaveLength(0);
      expect((await rowOf(plain, target.channelId)).status).toBe('expired');
    } finally {
      await plain.close();
    }
  });

  it('a lapsed token whose refresh hits an outage: 502 refresh_failed, status untouched', async () => {
    const target = await newChannel();
    w.sandbox.platformA.faults.failAlways('token', 500);
    w.clock.advance(61 * DAY);
    try {
      const err = await caught(withChannelAccess(w.t.service.deps, target, publisher('x').fn));
      expect(err).toMatchObject({ status: 502, code: 'refresh_failed' });
    } finally {
      w.clock.advance(-61 * DAY);
      w.sandbox.platformA.faults.clear();
    }
    expect((await rowOf(w, target.channelId)).status).toBe('connected');
  });

  it('a sealed token moved to another channel row, or with a flipped byte, does not open: 409 channel_error', async () => {
    const a = await newChannel();
    const b = await newChannel();
    const { db } = w.t.service.deps;
    const rowA = await rowOf(w, a.channelId);
    const rowB = await rowOf(w, b.channelId);
    const { fn, seen } = publisher('never');

    await db
      .update(channels)
      .set({ accessTokenSealed: rowA.accessTokenSealed })
      .where(eq(channels.id, b.channelId));
    expect(await caught(withChannelAccess(w.t.service.deps, b, fn))).toMatchObject({
      status: 409,
      code: 'channel_error',
    });

    const parts = rowB.accessTokenSealed!.split('.');
    const ct = Buffer.from(parts[3]!, 'base64url');
    ct[0]! ^= 0x80;
    parts[3] = ct.toString('base64url');
    await db
      .update(channels)
      .set({ accessTokenSealed: parts.join('.') })
      .where(eq(channels.id, b.channelId));
    expect(await caught(withChannelAccess(w.t.service.deps, b, fn))).toMatchObject({
      status: 409,
      code: 'channel_error',
    });
    expect(seen).toHaveLength(0);

    // Restored, it opens again: the failures were the tampering, nothing else.
    await db
      .update(channels)
      .set({ accessTokenSealed: rowB.accessTokenSealed })
      .where(eq(channels.id, b.channelId));
    await withChannelAccess(w.t.service.deps, b, fn);
    expect(seen).toHaveLength(1);
  });

  it('503 not_configured when the deployment has no vault key', async () => {
    const target = await newChannel();
    const deps = { ...w.t.service.deps, vault: null };
    expect(await caught(withChannelAccess(deps, target, publisher('x').fn))).toMatchObject({
      status: 503,
      code: 'not_configured',
    });
  });
});

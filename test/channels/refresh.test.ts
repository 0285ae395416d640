import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelTools } from '../../src/features/channels/channel-config.ts';
import { refreshChannelTokens } from '../../src/features/channels/channel-tokens.ts';
import { vaultAad } from '../../src/vault/aad.ts';
import {
  type ChannelWorld,
  channelRow,
  connected,
  expectNoSecrets,
  issuedSecrets,
  startChannelWorld,
} from './helpers.ts';

const DAY = 86_400_000;

let w: ChannelWorld;
beforeAll(async () => {
  w = await startChannelWorld();
});
afterAll(async () => {
  await w?.close();
});

const rowOf = channelRow;

/** Runs `fn` with the shared clock moved forward, then moves it back. */
async function later<T>(world: ChannelWorld, ms: number, fn: () => Promise<T>): Promise<T> {
  world.clock.advance(ms);
  try {
    return await fn();
  } finally {
    world.clock.advance(-ms);
  }
}

const refresh = (world: ChannelWorld, key: string, id: string) =>
  world.t.request('POST', `/v1/channels/${id}/refresh`, { key });

describe('POST /v1/channels/{id}/refresh', () => {
  it('is a no-op while the token is fresh', async () => {
    const { apiKey } = await w.t.signup();
    const channel = await connected(w, apiKey);
    const calls = w.sandbox.platformA.state.calls('token');
    const res = await later(w, 30 * DAY, () => refresh(w, apiKey, channel.id));
    expect(res.status).toBe(200);
    expect(res.body.channel).toEqual(channel);
    expect(w.sandbox.platformA.state.calls('token')).toBe(calls);
  });

  it('renews a token near expiry: new access token sealed, same refresh token kept', async () => {
    const { apiKey } = await w.t.signup();
    const channel = await connected(w, apiKey);
    const before = await rowOf(w, channel.id);
    const oldAccess = w.vault.open(before.accessTokenSealed!, vaultAad.channelToken(channel.id, 'access'));
    const oldRefresh = w.vault.open(before.refreshTokenSealed!, vaultAad.channelToken(channel.id, 'refresh'));
    const calls = w.sandbox.platformA.state.calls('token');

    const res = await later(w, 59.5 * DAY, async () => {
      const from = w.clock.now();
      const r = await refresh(w, apiKey, channel.id);
      expect(r.body.channel.lastRefreshAt).toBeGreaterThanOrEqual(from);
      expect(r.body.channel.lastRefreshAt).toBeLessThanOrEqual(w.clock.now());
      return r;
    });
    expect(res.status, res.text).toBe(200);
    expect(w.sandbox.platformA.state.calls('token')).toBe(calls + 1);
    expect(res.body.channel.status).toBe('connected');
    expect(res.body.channel.expiresAt).toBeGreaterThan(channel.expiresAt! + 59 * DAY);
    expectNoSecrets(res.text, issuedSecrets(w.sandbox));

    const after = await rowOf(w, channel.id);
    const newAccess = w.vault.open(after.accessTokenSealed!, vaultAad.channelToken(channel.id, 'access'));
    expect(newAccess).not.toBe(oldAccess);
    // The stored expiry is the platform's expires_in read on arrival (a few ms after the sandbox minted it).
    const minted = w.sandbox.platformA.state.tokens.get(newAccess)!.expiresAt;
    expect(Math.abs(res.body.channel.expiresAt - minted)).toBeLessThan(5_000);
    expect(w.vault.open(after.refreshTokenSealed!, vaultAad.channelToken(channel.id, 'refresh'))).toBe(
      oldRefresh,
    );
    expect(after.refreshLeaseUntil).toBeNull();
  });

  it('concurrent refreshes of one channel reach the platform once', async () => {
    const { apiKey } = await w.t.signup();
    const channel = await connected(w, apiKey);
    const calls = w.sandbox.platformA.state.calls('token');
    w.sandbox.platformA.faults.latency(150, 'token');
    try {
      const results = await later(w, 59.5 * DAY, () =>
        Promise.all([1, 2, 3].map(() => refresh(w, apiKey, channel.id))),
      );
      for (const r of results) expect(r.status, r.text).toBe(200);
      expect(new Set(results.map((r) => r.body.channel.expiresAt)).size).toBe(1);
    } finally {
      w.sandbox.platformA.faults.clear();
    }
    expect(w.sandbox.platformA.state.calls('token')).toBe(calls + 1);
  });

  it('a refresh working from a stale read (the token was renewed meanwhile) does not renew it again', async () => {
    const { apiKey } = await w.t.signup();
    const channel = await connected(w, apiKey);
    const stale = await rowOf(w, channel.id);
    const tools = channelTools(w.t.service.deps)!;
    await later(w, 59.5 * DAY, async () => {
      const first = await refreshChannelTokens(w.t.service.deps, tools, stale);
      expect(first.kind).toBe('refreshed');
      const calls = w.sandbox.platformA.state.calls('token');
      const second = await refreshChannelTokens(w.t.service.deps, tools, stale);
      expect(second.kind).toBe('skipped');
      expect(second.row?.accessTokenSealed).toBe(first.row?.accessTokenSealed);
      expect(w.sandbox.platformA.state.calls('token')).toBe(calls);
    });
  });

  it('502 refresh_failed when the platform refuses; connected while the old token lasts, expired once it lapsed', async () => {
    const { apiKey } = await w.t.signup();
    const channel = await connected(w, apiKey);

    w.sandbox.platformA.faults.failNext('token', 400, {
      code: 'invalid_grant',
      message: 'The refresh token is invalid',
    });
    const early = await later(w, 59.5 * DAY, () => refresh(w, apiKey, channel.id));
    expect(early.status).toBe(502);
    expect(early.body.error.code).toBe('refresh_failed');
    // CONTRACT.md's Error schema: one key, `error`; the channel rides inside it.
    expect(Object.keys(early.body)).toEqual(['error']);
    expect(early.body.error.channel.status).toBe('connected');
    expectNoSecrets(early.text, issuedSecrets(w.sandbox));
    const row = await rowOf(w, channel.id);
    expect(row.refreshLeaseUntil).toBeNull();
    expect(row.lastError).toMatch(/exchange_failed/);

    w.sandbox.platformA.faults.failNext('token', 400, { code: 'invalid_grant' });
    const lapsed = await later(w, 61 * DAY, () => refresh(w, apiKey, channel.id));
    expect(lapsed.status).toBe(502);
    expect(lapsed.body.error.channel.status).toBe('expired');
    expect((await rowOf(w, channel.id)).status).toBe('expired');
  });

  it('an outage (5xx, retried by the adapter) is 502 refresh_failed and leaves the status alone', async () => {
    const { apiKey } = await w.t.signup();
    const channel = await connected(w, apiKey);
    const calls = w.sandbox.platformA.state.calls('token');
    w.sandbox.platformA.faults.failAlways('token', 503);
    try {
      const res = await later(w, 61 * DAY, () => refresh(w, apiKey, channel.id));
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('refresh_failed');
      expect(res.body.error.channel.status).toBe('connected');
      expect(w.sandbox.platformA.state.calls('token')).toBeGreaterThan(calls + 1);
    } finally {
      w.sandbox.platformA.faults.clear();
    }
    // Once the platform is back, the same channel refreshes.
    const ok = await later(w, 61 * DAY, () => refresh(w, apiKey, channel.id));
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.channel.status).toBe('connected');
  });
});

describe('refresh without a usable refresh token', () => {
  let plain: ChannelWorld;
  beforeAll(async () => {
    plain = await startChannelWorld({ sandbox: { platformA: { refreshTokens: false } } });
  });
  afterAll(async () => {
    await plain?.close();
  });

  it('no refresh token: a no-op before the token lapses, then the channel becomes expired', async () => {
    const { apiKey } = await plain.t.signup();
    const channel = await connected(plain, apiKey);
    expect((await rowOf(plain, channel.id)).refreshTokenSealed).toBeNull();
    const calls = plain.sandbox.platformA.state.calls('token');

    const near = await later(plain, 59.9 * DAY, () => refresh(plain, apiKey, channel.id));
    expect(near.status).toBe(200);
    expect(near.body.channel.status).toBe('connected');

    const lapsed = await later(plain, 60 * DAY + 1, () => refresh(plain, apiKey, channel.id));
    expect(lapsed.status).toBe(200);
    expect(lapsed.body.channel.status).toBe('expired');
    expect(plain.sandbox.platformA.state.calls('token')).toBe(calls);

    // Reconnecting brings it back.
    const again = await connected(plain, apiKey);
    expect(again.id).toBe(channel.id);
    expect(again.status).toBe('connected');
  });

  it('a refresh token past its own expiry counts as none', async () => {
    const short = await startChannelWorld({
      sandbox: { platformA: { refreshTokenTtlSeconds: 30 * 86_400 } },
    });
    try {
      const { apiKey } = await short.t.signup();
      const channel = await connected(short, apiKey);
      const refreshExpiresAt = (await rowOf(short, channel.id)).refreshExpiresAt!;
      expect(refreshExpiresAt).toBeLessThanOrEqual(short.clock.now() + 30 * DAY);
      expect(refreshExpiresAt).toBeGreaterThan(short.clock.now() + 29 * DAY);
      const calls = short.sandbox.platformA.state.calls('token');
      const res = await later(short, 61 * DAY, () => refresh(short, apiKey, channel.id));
      expect(res.body.channel.status).toBe('expired');
      expect(short.sandbox.platformA.state.calls('token')).toBe(calls);
    } finally {
      await short.close();
    }
  });
});

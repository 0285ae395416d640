import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { events, oauthStates } from '../../src/db/schema/index.ts';
import {
  CHANNEL_HEALTH_SWEEP,
  channelHealthSweep,
  PROBE_INTERVAL_MS,
  REFRESH_RETRY_AFTER_MS,
} from '../../src/features/channels/token-health.sweep.ts';
import { vaultAad } from '../../src/vault/aad.ts';
import { authorize, type ChannelWorld, channelRow, connected, startChannelWorld } from './helpers.ts';

const DAY = 86_400_000;

let worlds: ChannelWorld[] = [];
afterEach(async () => {
  await Promise.all(worlds.map((w) => w.close()));
  worlds = [];
});

async function world(options: Parameters<typeof startChannelWorld>[0] = {}) {
  const w = await startChannelWorld(options);
  worlds.push(w);
  return w;
}

const rowOf = channelRow;

const sweep = async (w: ChannelWorld) => (await w.t.service.runner!.runOnce())[CHANNEL_HEALTH_SWEEP];

/** A new account with a channel for a member of its own. */
async function memberChannel(w: ChannelWorld) {
  const { apiKey, accountId } = await w.t.signup();
  const member = w.sandbox.platformA.state.addMember();
  w.sandbox.platformA.state.useMember(member.sub);
  const channel = await connected(w, apiKey);
  return { apiKey, accountId, channel, sub: member.sub };
}

describe('token health sweep', () => {
  it('refreshes tokens near expiry ahead of time and leaves fresh ones alone', async () => {
    const w = await world();
    const old = await memberChannel(w);
    w.clock.advance(30 * DAY);
    const young = await memberChannel(w);
    w.clock.advance(29.5 * DAY); // old: 59.5 days into a 60-day token; young: 29.5 days
    const calls = w.sandbox.platformA.state.calls('token');
    // One refresh, and both channels' periodic probes (their 12 h interval has long passed).
    expect(await sweep(w)).toBe(3);
    expect(w.sandbox.platformA.state.calls('token')).toBe(calls + 1);
    const refreshed = await rowOf(w, old.channel.id);
    expect(refreshed.status).toBe('connected');
    expect(refreshed.expiresAt).toBeGreaterThan(w.clock.now() + 59 * DAY);
    expect(refreshed.lastRefreshAt).toBeGreaterThan(old.channel.lastRefreshAt!);
    expect(await rowOf(w, young.channel.id)).toMatchObject({ lastRefreshAt: young.channel.lastRefreshAt });
    // Nothing is due any more.
    expect(await sweep(w)).toBe(0);
    expect(w.sandbox.platformA.state.calls('token')).toBe(calls + 1);
  });

  it('three sweeps racing refresh and probe each channel exactly once', async () => {
    const w = await world();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await memberChannel(w));
    w.clock.advance(59.5 * DAY);
    w.sandbox.platformA.faults.latency(30, 'token');
    const calls = w.sandbox.platformA.state.calls('token');
    const probes = w.sandbox.platformA.state.calls('userinfo');
    const signal = new AbortController().signal;
    const handled = await Promise.all([1, 2, 3].map(() => channelHealthSweep.run(w.t.service.deps, signal)));
    // Five refreshes and five probes between them, none twice.
    expect(w.sandbox.platformA.state.calls('token')).toBe(calls + 5);
    expect(w.sandbox.platformA.state.calls('userinfo')).toBe(probes + 5);
    expect(handled.reduce((x, y) => x + y, 0)).toBe(10);
    for (const m of made) {
      const row = await rowOf(w, m.channel.id);
      expect(row.expiresAt).toBeGreaterThan(w.clock.now() + 59 * DAY);
      expect(row.refreshLeaseUntil).toBeNull();
    }
  });

  it('a failed refresh is not retried by the sweep before REFRESH_RETRY_AFTER_MS', async () => {
    const w = await world();
    const m = await memberChannel(w);
    w.clock.advance(59.5 * DAY);
    w.sandbox.platformA.faults.failAlways('token', 503);
    await sweep(w);
    const afterFirst = w.sandbox.platformA.state.calls('token');
    expect((await rowOf(w, m.channel.id)).lastError).toMatch(/unavailable/);
    await sweep(w);
    expect(w.sandbox.platformA.state.calls('token')).toBe(afterFirst);
    w.sandbox.platformA.faults.clear();
    w.clock.advance(REFRESH_RETRY_AFTER_MS + 1);
    await sweep(w);
    const row = await rowOf(w, m.channel.id);
    expect(row.lastError).toBeNull();
    expect(row.expiresAt).toBeGreaterThan(w.clock.now() + 59 * DAY);
  });

  it('a channel without a refresh token becomes expired when its token lapses', async () => {
    const w = await world({ sandbox: { platformA: { refreshTokens: false } } });
    const m = await memberChannel(w);
    w.clock.advance(59.9 * DAY);
    await sweep(w);
    expect((await rowOf(w, m.channel.id)).status).toBe('connected');
    w.clock.advance(0.1 * DAY + 1);
    await sweep(w);
    const row = await rowOf(w, m.channel.id);
    expect(row.status).toBe('expired');
    const api = await w.t.request('GET', `/v1/channels/${m.channel.id}`, { key: m.apiKey });
    expect(api.body.channel.status).toBe('expired');
  });

  it('moves a channel revoked at the platform to revoked (wiped, event recorded); healthy ones stay', async () => {
    const w = await world();
    const revoked = await memberChannel(w);
    const healthy = await memberChannel(w);
    w.sandbox.platformA.faults.revoke({ sub: revoked.sub });

    // Within the probe interval nobody asks the platform.
    const userinfo = w.sandbox.platformA.state.calls('userinfo');
    await sweep(w);
    expect(w.sandbox.platformA.state.calls('userinfo')).toBe(userinfo);
    expect((await rowOf(w, revoked.channel.id)).status).toBe('connected');

    w.clock.advance(PROBE_INTERVAL_MS + 1);
    expect(await sweep(w)).toBe(2);
    expect(w.sandbox.platformA.state.calls('userinfo')).toBe(userinfo + 2);
    const row = await rowOf(w, revoked.channel.id);
    expect(row).toMatchObject({ status: 'revoked', accessTokenSealed: null, refreshTokenSealed: null });
    const recorded = await w.t.service.deps.db
      .select()
      .from(events)
      .where(and(eq(events.accountId, revoked.accountId), eq(events.type, 'channel.disconnected')));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.payload).toMatchObject({
      reason: 'revoked_at_platform',
      channel: { status: 'revoked' },
    });
    const stillHealthy = await rowOf(w, healthy.channel.id);
    expect(stillHealthy.status).toBe('connected');
    expect(stillHealthy.lastCheckedAt).toBeGreaterThan(healthy.channel.createdAt as number);

    // Probed once per interval.
    await sweep(w);
    expect(w.sandbox.platformA.state.calls('userinfo')).toBe(userinfo + 2);
  });

  it('a probe that finds the token expired refreshes it', async () => {
    const w = await world();
    const m = await memberChannel(w);
    const before = await rowOf(w, m.channel.id);
    const token = w.vault.open(before.accessTokenSealed!, vaultAad.channelToken(m.channel.id, 'access'));
    w.sandbox.platformA.faults.expire(token);
    w.clock.advance(PROBE_INTERVAL_MS + 1);
    await sweep(w);
    const row = await rowOf(w, m.channel.id);
    expect(row.status).toBe('connected');
    expect(row.accessTokenSealed).not.toBe(before.accessTokenSealed);
  });

  it('purges OAuth states a day after they expired', async () => {
    const w = await world();
    const { apiKey } = await w.t.signup();
    await authorize(w, apiKey);
    const count = async () => (await w.t.service.deps.db.select().from(oauthStates)).length;
    expect(await count()).toBe(1);
    w.clock.advance(10 * 60_000 + DAY - 1_000);
    await sweep(w);
    expect(await count()).toBe(1);
    w.clock.advance(2_000);
    await sweep(w);
    expect(await count()).toBe(0);
  });
});

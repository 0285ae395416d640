import { afterAll, describe, expect, it } from 'vitest';
import type { ChannelWorld } from '../channels/helpers.ts';
import { channelRow } from '../channels/helpers.ts';
import { SERVERS, until } from '../hardening/process-world.ts';
import { killAll, spawnService } from '../helpers/processes.ts';
import { B_REDIRECT, connectedB, startWorldB } from './platformB-world.ts';

/**
 * Rotating refresh tokens under two real worker processes sweeping the same channel: every
 * refresh token is spent exactly once (the sandbox ends the whole family, logging the member
 * out, if a spent one comes back), and the channel stays connected with a working token.
 * PGlite lives in one process, so this runs on the server backends only.
 */
let w: ChannelWorld | undefined;
afterAll(async () => {
  await killAll();
  await w?.close();
});

describe.runIf(SERVERS)('platformB rotating refresh tokens under two worker processes', () => {
  it('keeps the channel connected through several rotations, never reusing a refresh token', async () => {
    // 6-second access tokens: a refresh falls due every ~5 s; both workers sweep every 200 ms.
    w = await startWorldB({ sandbox: { platformB: { accessTokenTtlSeconds: 6 } } });
    const world = w;
    const { apiKey } = await world.t.signup();
    const channel = await connectedB(world, apiKey);
    const env = {
      DATABASE_URL: world.t.config.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      KIT_VAULT_KEY: world.vaultKey,
      ...world.sandbox.platformA.env(world.redirectUri),
      ...world.sandbox.platformB.env(B_REDIRECT),
      PLATFORMB_BACKOFF_SCALE: '0.001',
      SWEEP_INTERVAL_MS: '200',
    };
    const workers = await Promise.all([spawnService('worker', env), spawnService('worker', env)]);
    const state = world.sandbox.platformB.state;
    const spent = () =>
      [...state.refreshTokens.values()].filter(
        (r) => r.userId === channel.platformUserId && r.usedAt !== null,
      );
    await until('four rotations by the workers', () => spent().length >= 4, 90_000, 100);
    await Promise.all(workers.map((p) => p.kill('SIGTERM')));

    expect(state.reusedFamilies.size).toBe(0);
    const row = await channelRow(world, channel.id);
    expect(row.status).toBe('connected');
    expect(row.lastError).toBeNull();
    // The stored token is the live one: the platform accepts it for a post.
    const created = await world.t.request('POST', '/v1/posts', {
      key: apiKey,
      body: { text: 'still connected', channelId: channel.id },
    });
    const published = await world.t.request('POST', `/v1/posts/${created.body.post.id}/publish`, {
      key: apiKey,
    });
    expect(published.status, published.text).toBe(200);
    expect(published.body.post.status).toBe('published');
    expect(state.reusedFamilies.size).toBe(0);
  }, 180_000);
});

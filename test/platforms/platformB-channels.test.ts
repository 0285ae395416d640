import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelWorld } from '../channels/helpers.ts';
import { channelRow, connected, expectNoSecrets } from '../channels/helpers.ts';
import { connectB, connectedB, startWorldB } from './platformB-world.ts';

let w: ChannelWorld;
beforeAll(async () => {
  w = await startWorldB();
});
afterAll(async () => {
  await w?.close();
});

const HOUR = 3_600_000;

describe('platformB channels through the API, against the sandbox', () => {
  it('/v1/meta lists platformB as publishing once it is configured', async () => {
    const meta = await w.t.request('GET', '/v1/meta');
    expect(meta.body.platforms).toMatchObject([
      { id: 'platformA', maxPostLength: 3000, publishing: true },
      { id: 'platformB', maxPostLength: 280, publishing: true },
    ]);
    expect(meta.body.capabilities.publishing).toBe(true);
  });

  it('connects with PKCE: consent URL, callback, a connected channel with the @handle', async () => {
    const { apiKey } = await w.t.signup();
    const res = await connectB(w, apiKey);
    expect(res.status, res.text).toBe(200);
    const url = new URL(res.started.url);
    expect(url.origin + url.pathname).toBe(`${w.sandbox.platformB.authUrl}/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const member = w.sandbox.platformB.state.members.get(w.sandbox.platformB.state.currentMember)!;
    expect(res.body.channel).toMatchObject({
      platform: 'platformB',
      status: 'connected',
      platformUserId: member.id,
      handle: `@${member.username}`,
    });
    expectNoSecrets(res.text, [
      ...w.sandbox.platformB.state.tokens.keys(),
      ...w.sandbox.platformB.state.refreshTokens.keys(),
      w.sandbox.platformB.clientSecret,
    ]);
    // A replayed callback is refused (the state is single-use).
    const again = await fetch(`${w.t.url}/v1/channels/platformB/callback${res.back.search}`);
    expect(again.status).toBe(400);
  });

  it('a refused consent is 400 authorization_denied naming the platformB connect route', async () => {
    const { apiKey } = await w.t.signup();
    const started = await w.t.request('POST', '/v1/channels/platformB/connect', { key: apiKey });
    const res = await w.t.request(
      'GET',
      `/v1/channels/platformB/callback?error=access_denied&state=${encodeURIComponent(started.body.state)}`,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('authorization_denied');
    expect(res.body.error.message).toContain('/v1/channels/platformB/connect');
  });

  it('lists, gets and disconnects both platforms’ channels; another account sees none of them', async () => {
    const { apiKey } = await w.t.signup();
    const a = await connected(w, apiKey);
    const b = await connectedB(w, apiKey);
    const list = await w.t.request('GET', '/v1/channels', { key: apiKey });
    expect(list.body.channels.map((c: { id: string }) => c.id).sort()).toEqual([a.id, b.id].sort());
    const other = await w.t.signup();
    expect((await w.t.request('GET', `/v1/channels/${b.id}`, { key: other.apiKey })).status).toBe(404);
    expect((await w.t.request('DELETE', `/v1/channels/${b.id}`, { key: other.apiKey })).status).toBe(404);
    expect((await w.t.request('POST', `/v1/channels/${b.id}/refresh`, { key: other.apiKey })).status).toBe(
      404,
    );
    expect((await w.t.request('GET', '/v1/channels', { key: other.apiKey })).body.channels).toEqual([]);
    const got = await w.t.request('GET', `/v1/channels/${b.id}`, { key: apiKey });
    expect(got.body.channel.platform).toBe('platformB');
    const gone = await w.t.request('DELETE', `/v1/channels/${b.id}`, { key: apiKey });
    expect(gone.body.channel.status).toBe('revoked');
    expect((await channelRow(w, b.id)).refreshTokenSealed).toBeNull();
  });

  it('refreshes with rotation: the new refresh token is stored, the spent one is never sent again', async () => {
    const { apiKey } = await w.t.signup();
    const b = await connectedB(w, apiKey);
    const before = await channelRow(w, b.id);
    const spentBefore = [...w.sandbox.platformB.state.refreshTokens.values()].filter(
      (r) => r.usedAt !== null,
    ).length;
    w.clock.advance(2 * HOUR);
    try {
      for (let round = 0; round < 3; round++) {
        const res = await w.t.request('POST', `/v1/channels/${b.id}/refresh`, { key: apiKey });
        expect(res.status, res.text).toBe(200);
        expect(res.body.channel.status).toBe('connected');
        w.clock.advance(2 * HOUR);
      }
    } finally {
      w.clock.advance(-8 * HOUR);
    }
    const after = await channelRow(w, b.id);
    expect(after.refreshTokenSealed).not.toBe(before.refreshTokenSealed);
    expect(w.sandbox.platformB.state.reusedFamilies.size).toBe(0);
    const spent = [...w.sandbox.platformB.state.refreshTokens.values()].filter((r) => r.usedAt !== null);
    expect(spent.length - spentBefore).toBe(3);
  });

  it('publishes a text post to platformB through the API', async () => {
    const { apiKey } = await w.t.signup();
    const b = await connectedB(w, apiKey);
    const created = await w.t.request('POST', '/v1/posts', {
      key: apiKey,
      body: { text: 'Hello from Postkit to B', channelId: b.id },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.post.platform).toBe('platformB');
    const published = await w.t.request('POST', `/v1/posts/${created.body.post.id}/publish`, { key: apiKey });
    expect(published.status, published.text).toBe(200);
    const post = published.body.post;
    expect(post.status).toBe('published');
    const tweet = w.sandbox.platformB.state.tweets.get(post.platformPostId)!;
    expect(tweet).toMatchObject({ text: 'Hello from Postkit to B', authorId: b.platformUserId });
    expect(post.platformUrl).toBe(`${w.sandbox.url}/_sandbox/platformB/posts/${post.platformPostId}`);
  });
});

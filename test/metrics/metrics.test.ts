import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { APost, MetricCounts } from '../../src/sandbox/platformA/index.ts';
import { createPost, type Member, type PostWorld, startPostWorld } from '../posts/world.ts';

/** The counts the sandbox reports for a post, chosen by the test per post text. */
const planned = new Map<string, MetricCounts>();
const counts = (c: Partial<Record<'i' | 'l' | 'c' | 's' | 'k', number | null>>): MetricCounts => ({
  IMPRESSION: c.i ?? null,
  MEMBERS_REACHED: c.i ?? null,
  REACTION: c.l ?? null,
  COMMENT: c.c ?? null,
  RESHARE: c.s ?? null,
  LINK_CLICKS: c.k ?? null,
});

let w: PostWorld;
let alice: Member;

beforeAll(async () => {
  w = await startPostWorld({
    sandbox: {
      platformA: {
        metrics: (post: APost) => planned.get(post.text) ?? counts({ i: 10, l: 1, c: 1, s: 1, k: 1 }),
      },
    },
  });
  alice = await w.member();
});
afterEach(() => w.sandbox.platformA.faults.clear());
afterAll(async () => {
  await w?.close();
});

let seq = 0;
/** Creates and publishes a post whose platform counters are `c`; returns the published post. */
async function published(m: Member, c: MetricCounts, label = 'post') {
  const text = `${label} ${++seq}`;
  planned.set(text, c);
  const post = await createPost(w.t, m, { text, channelId: m.channelId });
  const res = await w.t.request('POST', `/v1/posts/${post.id}/publish`, { key: m.apiKey });
  expect(res.status, res.text).toBe(200);
  expect(res.body.post.status).toBe('published');
  return res.body.post as { id: string; publishedAt: number; platformPostId: string };
}

const refresh = (m: Member, id: string) =>
  w.t.request('POST', `/v1/posts/${id}/metrics/refresh`, { key: m.apiKey });
const metricsOf = (m: Member, id: string, query = '') =>
  w.t.request('GET', `/v1/posts/${id}/metrics${query}`, { key: m.apiKey });

const SNAPSHOT_KEYS = ['clicks', 'comments', 'fetchedAt', 'id', 'impressions', 'likes', 'postId', 'shares'];

describe('refresh and read', () => {
  it('keeps a reported zero apart from an unreported dimension (null)', async () => {
    const zeros = await published(alice, counts({ i: 0, l: 0, c: 0, s: 0, k: null }), 'zeros');
    const res = await refresh(alice, zeros.id);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body.snapshot).sort()).toEqual(SNAPSHOT_KEYS);
    expect(res.body.snapshot).toMatchObject({
      postId: zeros.id,
      impressions: 0,
      likes: 0,
      comments: 0,
      shares: 0,
      clicks: null,
    });
    expect(res.body.snapshot.id).toMatch(/^met_/);

    const empty = await published(alice, counts({}), 'empty');
    const none = await refresh(alice, empty.id);
    expect(none.body.snapshot).toMatchObject({
      impressions: null,
      likes: null,
      comments: null,
      shares: null,
      clicks: null,
    });

    // The stored values come back as stored.
    const read = await metricsOf(alice, zeros.id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ latest: res.body.snapshot, history: [res.body.snapshot] });
    expect(read.text).toContain('"clicks":null');
    expect(read.text).toContain('"likes":0');
  });

  it('appends snapshots and returns history newest first', async () => {
    const post = await published(alice, counts({ i: 100, l: 5, c: 1, s: 0, k: 2 }));
    expect((await metricsOf(alice, post.id)).body).toEqual({ latest: null, history: [] });
    const first = (await refresh(alice, post.id)).body.snapshot;
    w.clock.advance(1000);
    w.sandbox.platformA.state.setMetrics(post.platformPostId, {
      IMPRESSION: 250,
      REACTION: 9,
      LINK_CLICKS: null,
    });
    const second = (await refresh(alice, post.id)).body.snapshot;
    expect(second).toMatchObject({ impressions: 250, likes: 9, comments: 1, shares: 0, clicks: null });
    expect(second.fetchedAt).toBeGreaterThan(first.fetchedAt);
    const read = (await metricsOf(alice, post.id)).body;
    expect(read.latest).toEqual(second);
    expect(read.history).toEqual([second, first]);
    expect((await metricsOf(alice, post.id, '?limit=1')).body.history).toEqual([second]);
    expect((await metricsOf(alice, post.id, '?limit=0')).status).toBe(400);
  });

  it('answers 409 not_published for posts that are not on the platform', async () => {
    const draft = await createPost(w.t, alice, { text: 'still a draft', channelId: alice.channelId });
    const scheduled = await createPost(w.t, alice, {
      text: 'later',
      channelId: alice.channelId,
      runAt: w.clock.now() + 3_600_000,
    });
    for (const id of [draft.id, scheduled.id]) {
      const res = await refresh(alice, id);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('not_published');
    }
    // A post whose publish failed was never on the platform either.
    w.sandbox.platformA.faults.failNext('createPost', 400, { message: 'Commentary rejected' });
    const failing = await createPost(w.t, alice, { text: 'rejected one', channelId: alice.channelId });
    const pub = await w.t.request('POST', `/v1/posts/${failing.id}/publish`, { key: alice.apiKey });
    expect(pub.body.post.status).toBe('failed');
    expect((await refresh(alice, failing.id)).body.error.code).toBe('not_published');
  });

  it('answers 502 when the platform fails, and stores nothing', async () => {
    const post = await published(alice, counts({ i: 1 }));
    w.sandbox.platformA.faults.failAlways('analytics', 500);
    const res = await refresh(alice, post.id);
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('platform_error');
    expect(res.text).not.toMatch(/Bearer|access_token/i);
    expect((await metricsOf(alice, post.id)).body.history).toEqual([]);
  });

  it('answers 409 channel_revoked after a disconnect and after a revocation at the platform', async () => {
    const bob = await w.member();
    const post = await published(bob, counts({ i: 3 }));
    expect((await refresh(bob, post.id)).status).toBe(200);
    // Revoked at the platform: the read is refused, the channel becomes revoked.
    w.sandbox.platformA.faults.revoke({ sub: bob.author.split(':').pop()! });
    const atPlatform = await refresh(bob, post.id);
    expect(atPlatform.status).toBe(409);
    expect(atPlatform.body.error.code).toBe('channel_revoked');
    const channel = await w.t.request('GET', `/v1/channels/${bob.channelId}`, { key: bob.apiKey });
    expect(channel.body.channel.status).toBe('revoked');
    // Still revoked on the next try, without asking the platform.
    expect((await refresh(bob, post.id)).body.error.code).toBe('channel_revoked');

    const carol = await w.member();
    const other = await published(carol, counts({ i: 3 }));
    const disconnect = await w.t.request('DELETE', `/v1/channels/${carol.channelId}`, { key: carol.apiKey });
    expect(disconnect.status).toBe(200);
    const res = await refresh(carol, other.id);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('channel_revoked');
    // Reading stored metrics still works.
    expect((await metricsOf(carol, other.id)).status).toBe(200);
  });

  it('answers 404 for another account’s post and for unknown ids', async () => {
    const dave = await w.member();
    const post = await published(alice, counts({ i: 1 }));
    for (const res of [
      await refresh(dave, post.id),
      await metricsOf(dave, post.id),
      await refresh(alice, 'pst_unknown'),
      await metricsOf(alice, 'pst_unknown'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});

describe('analytics', () => {
  it('sums each post’s latest snapshot, per platform, with nulls adding nothing', async () => {
    const erin = await w.member();
    const empty = await w.t.request('GET', '/v1/analytics', { key: erin.apiKey });
    expect(empty.status).toBe(200);
    expect(empty.body.analytics).toEqual({
      from: null,
      to: null,
      totals: { posts: 0, impressions: 0, likes: 0, comments: 0, shares: 0, clicks: 0, engagements: 0 },
      reported: { impressions: 0, likes: 0, comments: 0, shares: 0, clicks: 0 },
      platforms: [],
    });

    const a = await published(erin, counts({ i: 100, l: 10, c: 2, s: 1, k: null }));
    w.clock.advance(10_000);
    const b = await published(erin, counts({ i: 50, l: 0, c: 0, s: 0, k: 4 }));
    w.clock.advance(10_000);
    const c = await published(erin, counts({}));
    w.clock.advance(10_000);
    await published(erin, counts({ i: 999, l: 999 })); // published, never polled: not counted
    await createPost(w.t, erin, { text: 'a draft', channelId: erin.channelId });
    for (const p of [a, b, c]) expect((await refresh(erin, p.id)).status).toBe(200);
    // A later snapshot replaces the earlier one in the totals (counters are lifetime totals).
    w.sandbox.platformA.state.setMetrics(a.platformPostId, { IMPRESSION: 120, REACTION: 12 });
    w.clock.advance(1000);
    expect((await refresh(erin, a.id)).status).toBe(200);

    const res = await w.t.request('GET', '/v1/analytics', { key: erin.apiKey });
    const totals = {
      posts: 3,
      impressions: 170,
      likes: 12,
      comments: 2,
      shares: 1,
      clicks: 4,
      engagements: 19,
    };
    const reported = { impressions: 2, likes: 2, comments: 2, shares: 2, clicks: 1 };
    expect(res.body.analytics).toEqual({
      from: null,
      to: null,
      totals,
      reported,
      platforms: [{ platform: 'platformA', totals, reported }],
    });

    // The window filters on publishedAt: [from, to).
    const window = await w.t.request('GET', `/v1/analytics?from=${b.publishedAt}&to=${c.publishedAt}`, {
      key: erin.apiKey,
    });
    expect(window.body.analytics.totals).toEqual({
      posts: 1,
      impressions: 50,
      likes: 0,
      comments: 0,
      shares: 0,
      clicks: 4,
      engagements: 4,
    });
    expect(window.body.analytics).toMatchObject({ from: b.publishedAt, to: c.publishedAt });
    const after = await w.t.request('GET', `/v1/analytics?from=${c.publishedAt}`, { key: erin.apiKey });
    expect(after.body.analytics.totals.posts).toBe(1);
    expect(after.body.analytics.reported).toEqual({
      impressions: 0,
      likes: 0,
      comments: 0,
      shares: 0,
      clicks: 0,
    });
    const before = await w.t.request('GET', `/v1/analytics?to=${a.publishedAt}`, { key: erin.apiKey });
    expect(before.body.analytics.totals.posts).toBe(0);

    const bad = await w.t.request('GET', '/v1/analytics?from=10&to=5', { key: erin.apiKey });
    expect(bad.status).toBe(400);
    expect((await w.t.request('GET', '/v1/analytics?from=soon', { key: erin.apiKey })).status).toBe(400);

    // Another account sees none of it.
    const frank = await w.member();
    expect(
      (await w.t.request('GET', '/v1/analytics', { key: frank.apiKey })).body.analytics.totals.posts,
    ).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APost, MetricCounts } from '../../src/sandbox/platformA/index.ts';
import { createPost, type Member, type PostWorld, startPostWorld } from '../posts/world.ts';

const planned = new Map<string, MetricCounts>();
const counts = (
  i: number | null,
  l: number | null,
  c: number | null,
  s: number | null,
  k: number | null,
) => ({
  IMPRESSION: i,
  MEMBERS_REACHED: i,
  REACTION: l,
  COMMENT: c,
  RESHARE: s,
  LINK_CLICKS: k,
});

let w: PostWorld;
let m: Member;

beforeAll(async () => {
  w = await startPostWorld({
    sandbox: { platformA: { metrics: (post: APost) => planned.get(post.text) ?? counts(1, 1, 1, 1, 1) } },
  });
  m = await w.member();
});
afterAll(async () => {
  await w?.close();
});

const call = (method: string, path: string, key = m.apiKey, body?: unknown) =>
  w.t.request(method, path, { key, body });

async function score(id: string) {
  const res = await call('POST', `/v1/posts/${id}/score`);
  expect(res.status, res.text).toBe(200);
  return res.body.score as { score: number; verdict: string | null };
}

async function publish(id: string) {
  const res = await call('POST', `/v1/posts/${id}/publish`);
  expect(res.status, res.text).toBe(200);
  return res.body.post as { id: string; publishedAt: number; platform: string; platformPostId: string };
}

describe('/v1/calibration', () => {
  it('pairs each post’s latest score with its latest snapshot, only when it has both', async () => {
    expect((await call('GET', '/v1/calibration')).body).toEqual({
      calibration: [],
      summary: { posts: 0, spearman: null, pairwiseAccuracy: null },
    });

    // Scored twice (the text changed while a draft), published, polled twice.
    const first = 'We cut our build from 14 minutes to 90 seconds. Here is what mattered.';
    const second =
      'Three things cut our CI from 14 minutes to 90 seconds:\n\n1. Caching\n2. Sharding\n3. Deleting tests nobody read';
    planned.set(second, counts(500, 20, 5, 2, null));
    const a = await createPost(w.t, m, { text: first, channelId: m.channelId });
    const firstScore = await score(a.id);
    expect((await call('PATCH', `/v1/posts/${a.id}`, m.apiKey, { text: second })).status).toBe(200);
    w.clock.advance(1000);
    const latestScore = await score(a.id);
    // The two texts grade differently, so the row shows which score it took.
    expect(latestScore.score).not.toBe(firstScore.score);
    const pa = await publish(a.id);
    expect((await call('POST', `/v1/posts/${a.id}/metrics/refresh`)).status).toBe(200);
    w.sandbox.platformA.state.setMetrics(pa.platformPostId, { IMPRESSION: 800, COMMENT: 9 });
    w.clock.advance(1000);
    expect((await call('POST', `/v1/posts/${a.id}/metrics/refresh`)).status).toBe(200);

    // Scored and polled, all zeros but clicks unreported.
    const zerosText = 'Nobody will read this one.';
    planned.set(zerosText, counts(0, 0, 0, 0, null));
    const b = await createPost(w.t, m, { text: zerosText, channelId: m.channelId });
    const bScore = await score(b.id);
    w.clock.advance(1000);
    const pb = await publish(b.id);
    expect((await call('POST', `/v1/posts/${b.id}/metrics/refresh`)).status).toBe(200);

    // Polled but never scored; scored but never polled; a scored draft: none of them belong.
    const c = await createPost(w.t, m, { text: 'Published, polled, never scored', channelId: m.channelId });
    await publish(c.id);
    expect((await call('POST', `/v1/posts/${c.id}/metrics/refresh`)).status).toBe(200);
    const d = await createPost(w.t, m, {
      text: 'Published and scored, never polled',
      channelId: m.channelId,
    });
    await score(d.id);
    await publish(d.id);
    const e = await createPost(w.t, m, { text: 'A scored draft', channelId: m.channelId });
    await score(e.id);

    const res = await call('GET', '/v1/calibration');
    expect(res.status).toBe(200);
    expect(res.body.calibration).toEqual([
      {
        postId: b.id,
        platform: 'platformA',
        score: bScore.score,
        verdict: bScore.verdict,
        publishedAt: pb.publishedAt,
        impressions: 0,
        likes: 0,
        comments: 0,
        shares: 0,
        clicks: null,
        engagements: 0,
      },
      {
        postId: a.id,
        platform: pa.platform,
        score: latestScore.score,
        verdict: latestScore.verdict,
        publishedAt: pa.publishedAt,
        impressions: 800,
        likes: 20,
        comments: 9,
        shares: 2,
        clicks: null,
        engagements: 31,
      },
    ]);
    const sum = res.body.calibration.reduce((n: number, r: { engagements: number }) => n + r.engagements, 0);
    expect(sum).toBe(31);
    // Two posts: too few for a correlation; their one pair (31 vs 0 engagements) is ordered
    // right exactly when the busier post scored higher.
    const expected = latestScore.score === bScore.score ? 0.5 : latestScore.score > bScore.score ? 1 : 0;
    expect(res.body.summary).toEqual({ posts: 2, spearman: null, pairwiseAccuracy: expected });

    // Another account's dataset is its own.
    const other = await w.t.signup();
    expect((await call('GET', '/v1/calibration', other.apiKey)).body).toEqual({
      calibration: [],
      summary: { posts: 0, spearman: null, pairwiseAccuracy: null },
    });
  });
});

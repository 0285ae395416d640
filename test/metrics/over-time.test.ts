import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricSnapshots, posts } from '../../src/db/schema/index.ts';
import { pruneMetricSnapshots } from '../../src/features/metrics/retention.sweep.ts';
import { newId } from '../../src/lib/ids.ts';
import type { MetricCounts } from '../../src/sandbox/platformA/index.ts';
import { createPost, type Member, type PostWorld, startPostWorld } from '../posts/world.ts';

/**
 * Metrics over time: every refresh kept as a dated snapshot, GET /v1/posts/{id}/metrics/history,
 * content decay and weekly frequency (GET /v1/analytics/trends), and the retention sweep that
 * prunes old snapshots without changing what analytics and decay read. Both backends.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

const counts: MetricCounts = {
  IMPRESSION: 0,
  MEMBERS_REACHED: 0,
  REACTION: 0,
  COMMENT: 0,
  RESHARE: 0,
  LINK_CLICKS: null,
};

let w: PostWorld;
let alice: Member;
let bob: Member;

beforeAll(async () => {
  w = await startPostWorld({
    sandbox: { platformA: { metrics: () => ({ ...counts }) } },
  });
  alice = await w.member();
  bob = await w.member();
});
afterAll(async () => {
  await w?.close();
});

let seq = 0;
async function published(m: Member, label: string) {
  const text = `${label} ${++seq}`;
  const post = await createPost(w.t, m, { text, channelId: m.channelId });
  const res = await w.t.request('POST', `/v1/posts/${post.id}/publish`, { key: m.apiKey });
  expect(res.status, res.text).toBe(200);
  return res.body.post as { id: string; text: string; publishedAt: number; platformPostId: string };
}

/** A snapshot written as a refresh would write it, `age` after the post's publishing. */
async function snapshot(
  m: Member,
  post: { id: string; publishedAt: number },
  age: number,
  engagements: number,
) {
  await w.t.service.deps.db.insert(metricSnapshots).values({
    id: newId('metric'),
    postId: post.id,
    accountId: m.accountId,
    impressions: engagements * 10,
    likes: engagements,
    comments: 0,
    shares: 0,
    clicks: null,
    fetchedAt: post.publishedAt + age,
  });
}

/** A published post whose publishing is moved `ago` before now (snapshots can then be old). */
async function publishedAgo(m: Member, label: string, ago: number) {
  const post = await published(m, label);
  const publishedAt = w.clock.now() - ago;
  // Polled just now as far as the metrics sweep knows, so a sweep run adds no snapshot of its own.
  await w.t.service.deps.db
    .update(posts)
    .set({ publishedAt, metricsPolledAt: w.clock.now() })
    .where(eq(posts.id, post.id));
  return { ...post, publishedAt };
}

const trends = (m: Member, query = '') =>
  w.t.request('GET', `/v1/analytics/trends${query}`, { key: m.apiKey });

describe('metrics history', () => {
  it('keeps every refresh as a dated snapshot and answers the series oldest first', async () => {
    const post = await published(alice, 'history');
    const ages = [30 * MIN, 2 * HOUR, 26 * HOUR];
    for (const [i, age] of ages.entries()) {
      w.clock.advance(age - (i ? ages[i - 1]! : 0));
      w.sandbox.platformA.state.setMetrics(post.platformPostId, {
        REACTION: (i + 1) * 5,
        IMPRESSION: (i + 1) * 50,
      });
      const res = await w.t.request('POST', `/v1/posts/${post.id}/metrics/refresh`, { key: alice.apiKey });
      expect(res.status, res.text).toBe(200);
    }
    const res = await w.t.request('GET', `/v1/posts/${post.id}/metrics/history`, { key: alice.apiKey });
    expect(res.status, res.text).toBe(200);
    expect(res.body.postId).toBe(post.id);
    expect(res.body.publishedAt).toBe(post.publishedAt);
    expect(res.body.hasMore).toBe(false);
    // The test clock keeps running between the steps: each age is the planned one plus a few ms.
    const got = res.body.snapshots.map((s: { sincePublishMs: number }) => s.sincePublishMs);
    expect(got).toHaveLength(3);
    got.forEach((age: number, i: number) => {
      expect(age).toBeGreaterThanOrEqual(ages[i]!);
      expect(age).toBeLessThan(ages[i]! + 30_000);
    });
    expect(res.body.snapshots.map((s: { engagements: number }) => s.engagements)).toEqual([5, 10, 15]);
    expect(res.body.snapshots[2]).toMatchObject({
      likes: 15,
      comments: 0,
      shares: 0,
      clicks: null,
      impressions: 150,
    });

    const page = await w.t.request('GET', `/v1/posts/${post.id}/metrics/history?limit=2`, {
      key: alice.apiKey,
    });
    expect(page.body.snapshots).toHaveLength(2);
    expect(page.body.hasMore).toBe(true);
    const rest = await w.t.request(
      'GET',
      `/v1/posts/${post.id}/metrics/history?from=${page.body.snapshots[1].fetchedAt + 1}`,
      { key: alice.apiKey },
    );
    expect(rest.body.snapshots.map((s: { engagements: number }) => s.engagements)).toEqual([15]);
  });

  it('answers 404 for another account’s post, exactly as for a post that does not exist', async () => {
    const post = await published(alice, 'private history');
    const theirs = await w.t.request('GET', `/v1/posts/${post.id}/metrics/history`, { key: bob.apiKey });
    const nobody = await w.t.request('GET', '/v1/posts/pst_nothing/metrics/history', { key: bob.apiKey });
    expect(theirs.status).toBe(404);
    expect(nobody.status).toBe(404);
    expect(theirs.body.error.code).toBe(nobody.body.error.code);
    expect(theirs.body.error.message).toBe(nobody.body.error.message);
    expect(
      (await w.t.request('GET', `/v1/posts/${post.id}/metrics/history?limit=0`, { key: alice.apiKey }))
        .status,
    ).toBe(400);
  });
});

describe('content decay', () => {
  it('reads the share reached at 1 h, 24 h and 7 d between the snapshots around each, median over posts', async () => {
    const m = await w.member();
    const a = await publishedAgo(m, 'decay a', 9 * DAY);
    // 10 at 30 min, 30 at 2 h: 16.67 at 1 h. 30 at 2 h, 60 at 2 d: 44.35 at 24 h. 60 at 2 d, 100 at 8 d: 93.33 at 7 d.
    await snapshot(m, a, 30 * MIN, 10);
    await snapshot(m, a, 2 * HOUR, 30);
    await snapshot(m, a, 2 * DAY, 60);
    await snapshot(m, a, 8 * DAY, 100);
    const b = await publishedAgo(m, 'decay b', 9 * DAY);
    // One snapshot at 8 d: read from publishing (0) to 50 at 8 d.
    await snapshot(m, b, 8 * DAY, 50);
    const young = await publishedAgo(m, 'decay young', 3 * HOUR);
    await snapshot(m, young, 2 * HOUR, 40);
    const silent = await publishedAgo(m, 'decay silent', 9 * DAY);
    await snapshot(m, silent, 8 * DAY, 0);

    const res = await trends(m);
    expect(res.status, res.text).toBe(200);
    const decay = res.body.trends.decay;
    const aShares = [(10 + (20 * 30) / 90) / 100, (30 + (30 * 22) / 46) / 100, (60 + (40 * 5) / 6) / 100];
    const bShares = [1 / 192, 1 / 8, 7 / 8];
    // The young post counts at 1 h only (40 at 2 h read back: 20 of 40), the silent one never.
    const oneHour = [aShares[0]!, bShares[0]!, 0.5].sort((x, y) => x - y)[1]!;
    expect(decay).toEqual([
      { after: '1h', afterMs: HOUR, posts: 3, share: Math.round(oneHour * 1000) / 1000 },
      {
        after: '24h',
        afterMs: DAY,
        posts: 2,
        share: Math.round(((aShares[1]! + bShares[1]!) / 2) * 1000) / 1000,
      },
      {
        after: '7d',
        afterMs: 7 * DAY,
        posts: 2,
        share: Math.round(((aShares[2]! + bShares[2]!) / 2) * 1000) / 1000,
      },
    ]);
    // Another account sees none of it.
    const other = await trends(bob, `?from=${a.publishedAt}&to=${a.publishedAt + 1}`);
    expect(other.body.trends.decay.map((d: { posts: number }) => d.posts)).toEqual([0, 0, 0]);
    expect(other.body.trends.decay[0].share).toBeNull();
  });

  it('counts posts per week beside their engagements, quiet weeks included as 0', async () => {
    const m = await w.member();
    // Monday 2030-01-07 00:00 UTC and the weeks after it.
    const monday = Date.UTC(2030, 0, 7);
    const week = 7 * DAY;
    const at = [monday + HOUR, monday + 6 * DAY, monday + 2 * week + 3 * DAY];
    const made = [];
    for (const [i, publishedAt] of at.entries()) {
      const post = await published(m, `weekly ${i}`);
      await w.t.service.deps.db.update(posts).set({ publishedAt }).where(eq(posts.id, post.id));
      made.push({ ...post, publishedAt });
    }
    await snapshot(m, made[0]!, HOUR, 6);
    await snapshot(m, made[1]!, HOUR, 2);
    const res = await trends(m, `?from=${monday}&to=${monday + 3 * week}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.trends.weekly).toEqual([
      { weekStart: monday, posts: 2, measured: 2, engagements: 8, engagementsPerPost: 4 },
      { weekStart: monday + week, posts: 0, measured: 0, engagements: 0, engagementsPerPost: null },
      { weekStart: monday + 2 * week, posts: 1, measured: 0, engagements: 0, engagementsPerPost: null },
    ]);
    const bad = await trends(m, '?from=10&to=5');
    expect(bad.status).toBe(400);
  });
});

describe('retention', () => {
  it('prunes old snapshots but keeps each post’s latest and those around the decay milestones; decay and analytics do not move', async () => {
    const m = await w.member();
    const post = await publishedAgo(m, 'retention', 100 * DAY);
    const ages = [
      10 * MIN,
      50 * MIN,
      70 * MIN,
      3 * HOUR,
      10 * HOUR,
      23 * HOUR,
      25 * HOUR,
      3 * DAY,
      6 * DAY,
      7 * DAY + HOUR,
      8 * DAY,
    ];
    for (const [i, age] of ages.entries()) await snapshot(m, post, age, (i + 1) * 3);
    await snapshot(m, post, 99 * DAY, 100);
    const before = {
      trends: (await trends(m)).body.trends.decay,
      analytics: (await w.t.request('GET', '/v1/analytics', { key: m.apiKey })).body,
    };

    const deps = w.t.service.deps;
    expect(deps.config.METRICS_SNAPSHOT_RETENTION_DAYS).toBe(90);
    // Retention 0 keeps everything.
    expect(
      await pruneMetricSnapshots({ ...deps, config: { ...deps.config, METRICS_SNAPSHOT_RETENTION_DAYS: 0 } }),
    ).toBe(0);
    await pruneMetricSnapshots(deps);
    const history = await w.t.request('GET', `/v1/posts/${post.id}/metrics/history`, { key: m.apiKey });
    expect(history.body.snapshots.map((s: { sincePublishMs: number }) => s.sincePublishMs)).toEqual([
      50 * MIN,
      70 * MIN,
      23 * HOUR,
      25 * HOUR,
      6 * DAY,
      7 * DAY + HOUR,
      8 * DAY,
      99 * DAY,
    ]);
    expect(await pruneMetricSnapshots(deps)).toBe(0);
    expect((await trends(m)).body.trends.decay).toEqual(before.trends);
    expect((await w.t.request('GET', '/v1/analytics', { key: m.apiKey })).body).toEqual(before.analytics);

    // Snapshots inside the window are all kept.
    const recent = await publishedAgo(m, 'retention recent', 10 * DAY);
    for (const age of [10 * MIN, 3 * HOUR, 5 * HOUR]) await snapshot(m, recent, age, 1);
    await pruneMetricSnapshots(deps);
    const kept = await w.t.request('GET', `/v1/posts/${recent.id}/metrics/history`, { key: m.apiKey });
    expect(kept.body.snapshots).toHaveLength(3);
  });

  it('runs as a sweep of the jobs kit', async () => {
    const m = await w.member();
    const post = await publishedAgo(m, 'retention sweep', 200 * DAY);
    for (const age of [MIN, 2 * MIN, 3 * MIN, 199 * DAY]) await snapshot(m, post, age, 1);
    const ran = await w.t.service.runner!.runOnce();
    expect(ran['metrics-retention']).toBeGreaterThanOrEqual(1);
    const history = await w.t.request('GET', `/v1/posts/${post.id}/metrics/history`, { key: m.apiKey });
    // 1 min and 2 min are neither the last before 1 h nor the latest: gone.
    expect(history.body.snapshots.map((s: { sincePublishMs: number }) => s.sincePublishMs)).toEqual([
      3 * MIN,
      199 * DAY,
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APost, MetricCounts } from '../../src/sandbox/platformA/index.ts';
import { createPost, type Member, type PostWorld, startPostWorld } from '../posts/world.ts';

/** Posts published through Postkit join the history once they have a metric snapshot. */

const planned = new Map<string, MetricCounts>();
let w: PostWorld;
let m: Member;
let stranger: Member;

beforeAll(async () => {
  w = await startPostWorld({
    sandbox: {
      platformA: {
        metrics: (post: APost) =>
          planned.get(post.text) ?? {
            IMPRESSION: 10,
            MEMBERS_REACHED: 10,
            REACTION: 1,
            COMMENT: 0,
            RESHARE: 0,
            LINK_CLICKS: 0,
          },
      },
    },
  });
  m = await w.member();
  stranger = await w.member();
});
afterAll(async () => {
  await w?.close();
});

const call = (method: string, path: string, key = m.apiKey, body?: unknown) =>
  w.t.request(method, path, { key, body });

async function publish(text: string, key = m) {
  const post = await createPost(w.t, key, { text, channelId: key.channelId });
  const res = await call('POST', `/v1/posts/${post.id}/publish`, key.apiKey);
  expect(res.status, res.text).toBe(200);
  return res.body.post as { id: string; publishedAt: number; platformPostId: string };
}

describe('history of posts published through Postkit', () => {
  it('lists a published post once it has metrics, with its latest counters, shadowing an import of the same text', async () => {
    const text = 'We shipped the new importer today.\n\nThree things surprised us.';
    planned.set(text, {
      IMPRESSION: 500,
      MEMBERS_REACHED: 400,
      REACTION: 30,
      COMMENT: 4,
      RESHARE: 2,
      LINK_CLICKS: 7,
    });
    const post = await publish(text);
    const unpolled = await publish('Published but never polled');

    // An import of the same text (white space differs) before and after: one entry, the live one.
    const imported = await call('POST', '/v1/history', m.apiKey, {
      items: [
        { text: 'We shipped the new importer today. Three things surprised us.', reactions: 1 },
        { text: 'Old post', reactions: 5, publishedAt: '2024-01-01' },
      ],
    });
    expect(imported.status, imported.text).toBe(201);
    expect(imported.body).toEqual({ imported: 2, duplicates: 0, total: 2 });

    expect((await call('POST', `/v1/posts/${post.id}/metrics/refresh`)).status).toBe(200);
    const res = await call('GET', '/v1/history');
    expect(res.status, res.text).toBe(200);
    expect(res.body.history.map((h: { text: string }) => h.text)).toEqual([text, 'Old post']);
    expect(res.body.history[0]).toEqual({
      id: post.id,
      source: 'postkit',
      postId: post.id,
      text,
      platform: 'platformA',
      publishedAt: post.publishedAt,
      media: null,
      reactions: 30,
      comments: 4,
      shares: 2,
      impressions: 500,
      clicks: 7,
      engagement: 36,
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
    });
    expect(res.body.history.some((h: { id: string }) => h.id === unpolled.id)).toBe(false);

    // Newer counters show at once: nothing was copied.
    w.sandbox.platformA.state.setMetrics(post.platformPostId, { REACTION: 50, COMMENT: 6 });
    w.clock.advance(1_000);
    expect((await call('POST', `/v1/posts/${post.id}/metrics/refresh`)).status).toBe(200);
    const later = (await call('GET', '/v1/history')).body.history[0];
    expect(later).toMatchObject({ id: post.id, reactions: 50, engagement: 58 });

    // A Postkit entry is not removed from history; the imports are.
    const del = await call('DELETE', `/v1/history/${post.id}`);
    expect(del.status).toBe(409);
    expect(del.body.error.code).toBe('not_imported');
    expect((await call('DELETE', `/v1/history/${unpolled.id}`)).status).toBe(404);
    expect((await call('DELETE', '/v1/history')).body).toEqual({ deleted: 2 });
    expect((await call('GET', '/v1/history')).body.history.map((h: { id: string }) => h.id)).toEqual([
      post.id,
    ]);
  });

  it('posts published through Postkit feed the personal model once their metrics arrive', async () => {
    const author = await w.member();
    const texts = Array.from(
      { length: 10 },
      (_, i) => `Week ${i}: what we shipped, what broke, and what we would do again.`,
    );
    for (const [i, text] of texts.entries()) {
      planned.set(text, {
        IMPRESSION: 100,
        MEMBERS_REACHED: 90,
        REACTION: 5 + 3 * i,
        COMMENT: i % 3,
        RESHARE: 0,
        LINK_CLICKS: 0,
      });
      const post = await publish(text, author);
      expect((await call('POST', `/v1/posts/${post.id}/metrics/refresh`, author.apiKey)).status).toBe(200);
    }
    // No import happened: the sweep finds the metric polls by itself.
    await w.t.service.runner!.runOnce();
    const scored = await call('POST', '/v1/score', author.apiKey, { post: 'Week 11: what we shipped.' });
    expect(scored.status, scored.text).toBe(200);
    expect(scored.body.personal?.basedOn).toBe(10);
  });

  it('never shows or touches another account’s published posts', async () => {
    const mine = await publish('Only mine, published and polled');
    expect((await call('POST', `/v1/posts/${mine.id}/metrics/refresh`)).status).toBe(200);
    const theirs = (await call('GET', '/v1/history', stranger.apiKey)).body.history;
    expect(theirs.some((h: { id: string }) => h.id === mine.id)).toBe(false);
    const del = await call('DELETE', `/v1/history/${mine.id}`, stranger.apiKey);
    expect(del.status).toBe(404);
    expect(
      (await call('GET', '/v1/history')).body.history.some((h: { id: string }) => h.id === mine.id),
    ).toBe(true);
  });
});

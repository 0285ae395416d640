import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollDueMetrics } from '../../src/features/metrics/metrics.sweep.ts';
import { publishSweep } from '../../src/features/posts/publishing/publish.sweep.ts';
import type { ChannelWorld } from '../channels/helpers.ts';
import { sampleFile } from '../media/fixtures.ts';
import { connectedB, startWorldB } from './platformB-world.ts';

/** Media, posts, publish and metrics for platformB through the API, against the sandbox. */
let w: ChannelWorld;
const dataDir = mkdtempSync(join(tmpdir(), 'postkit-b-'));
beforeAll(async () => {
  w = await startWorldB({ env: { DATA_DIR: dataDir, METRICS_MIN_POLL_INTERVAL_MS: '1' } });
});
afterAll(async () => {
  await w?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function upload(apiKey: string, kind: 'png' | 'mp4' | 'gif' | 'pdf', size = 4096) {
  const types = { png: 'image/png', mp4: 'video/mp4', gif: 'image/gif', pdf: 'application/pdf' };
  const res = await w.t.request('POST', '/v1/media', {
    key: apiKey,
    raw: sampleFile[kind](size),
    headers: { 'content-type': types[kind], 'x-filename': `file.${kind}` },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.media.id as string;
}

async function publish(apiKey: string, body: Record<string, unknown>) {
  const created = await w.t.request('POST', '/v1/posts', { key: apiKey, body });
  expect(created.status, created.text).toBe(201);
  return w.t.request('POST', `/v1/posts/${created.body.post.id}/publish`, { key: apiKey });
}

describe('platformB publishing through the API', () => {
  it('publishes an image post and a video post; the sandbox holds the same bytes', async () => {
    const { apiKey } = await w.t.signup();
    const channel = await connectedB(w, apiKey);
    const image = await publish(apiKey, {
      text: 'with an image',
      channelId: channel.id,
      mediaIds: [await upload(apiKey, 'png')],
    });
    expect(image.status, image.text).toBe(200);
    const tweet = w.sandbox.platformB.state.tweets.get(image.body.post.platformPostId)!;
    expect(tweet.mediaIds).toHaveLength(1);
    expect(w.sandbox.platformB.state.media.get(tweet.mediaIds[0]!)!.category).toBe('tweet_image');
    const video = await publish(apiKey, {
      text: 'with a video',
      channelId: channel.id,
      mediaIds: [await upload(apiKey, 'mp4', 200_000)],
    });
    expect(video.status, video.text).toBe(200);
    const vt = w.sandbox.platformB.state.tweets.get(video.body.post.platformPostId)!;
    expect(w.sandbox.platformB.state.media.get(vt.mediaIds[0]!)).toMatchObject({
      category: 'tweet_video',
      state: 'succeeded',
    });
  });

  it('a PDF or five images on a platformB post are refused at create with the platform rule, and nothing is posted', async () => {
    const { apiKey } = await w.t.signup();
    const channel = await connectedB(w, apiKey);
    const before = w.sandbox.platformB.state.tweets.size;
    const pdf = await w.t.request('POST', '/v1/posts', {
      key: apiKey,
      body: { text: 'a pdf', channelId: channel.id, mediaIds: [await upload(apiKey, 'pdf')] },
    });
    expect(pdf.status).toBe(400);
    expect(pdf.body.error.details[0]).toMatchObject({ path: 'mediaIds' });
    expect(pdf.body.error.details[0].message).toContain('no PDF');
    const images = [];
    for (let i = 0; i < 5; i++) images.push(await upload(apiKey, 'png'));
    const five = await w.t.request('POST', '/v1/posts', {
      key: apiKey,
      body: { text: 'five', channelId: channel.id, mediaIds: images },
    });
    expect(five.status).toBe(400);
    expect(five.body.error.details[0].message).toContain('1-4 images');
    const four = await publish(apiKey, { text: 'four', channelId: channel.id, mediaIds: images.slice(0, 4) });
    expect(four.status, four.text).toBe(200);
    expect(w.sandbox.platformB.state.tweets.size).toBe(before + 1);
  });

  it('refreshes metrics for a platformB post (absent private counters stay null) and the sweep polls it', async () => {
    const { apiKey } = await w.t.signup();
    const channel = await connectedB(w, apiKey);
    const res = await publish(apiKey, { text: 'metrics please', channelId: channel.id });
    const post = res.body.post;
    w.sandbox.platformB.state.setMetrics(post.platformPostId, {
      impression_count: 321,
      like_count: 7,
      reply_count: 2,
      retweet_count: 1,
      quote_count: 1,
      url_link_clicks: null,
    });
    const refreshed = await w.t.request('POST', `/v1/posts/${post.id}/metrics/refresh`, { key: apiKey });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(JSON.stringify(refreshed.body)).toContain('321');
    const latest =
      refreshed.body.latest ?? refreshed.body.snapshot ?? refreshed.body.metrics?.at?.(-1) ?? refreshed.body;
    expect(JSON.stringify(latest)).toMatch(/"clicks":null/);
    const reads = w.sandbox.platformB.state.calls('getTweet');
    await new Promise((r) => setTimeout(r, 5));
    expect(await pollDueMetrics(w.t.service.deps)).toBeGreaterThanOrEqual(1);
    expect(w.sandbox.platformB.state.calls('getTweet')).toBeGreaterThan(reads);
  });

  it('a 429 on the create is retried no sooner than x-rate-limit-reset, then published once; the URL is the sandbox’s page for that post', async () => {
    const { apiKey } = await w.t.signup();
    const channel = await connectedB(w, apiKey);
    w.sandbox.platformB.faults.rateLimitNext('createTweet', { resetInSeconds: 600 });
    const created = await w.t.request('POST', '/v1/posts', {
      key: apiKey,
      body: { text: 'after the reset', channelId: channel.id },
    });
    const first = await w.t.request('POST', `/v1/posts/${created.body.post.id}/publish`, { key: apiKey });
    expect(first.status, first.text).toBe(503);
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThanOrEqual(595);
    const row = await w.t.service.deps.db.query.posts.findFirst({
      where: (p, { eq }) => eq(p.id, created.body.post.id),
    });
    expect(row!.retryAt! - Date.now()).toBeGreaterThan(590_000);
    // Before the reset the sweep leaves it alone; after it, one create.
    const signal = new AbortController().signal;
    await publishSweep.run(w.t.service.deps, signal);
    expect(w.sandbox.platformB.state.listTweets().filter((t) => t.text === 'after the reset')).toHaveLength(
      0,
    );
    w.clock.advance(601_000);
    try {
      await publishSweep.run(w.t.service.deps, signal);
    } finally {
      w.clock.advance(-601_000);
    }
    const tweets = w.sandbox.platformB.state.listTweets().filter((t) => t.text === 'after the reset');
    expect(tweets).toHaveLength(1);
    const got = await w.t.request('GET', `/v1/posts/${created.body.post.id}`, { key: apiKey });
    expect(got.body.post).toMatchObject({ status: 'published', platformPostId: tweets[0]!.id });
    expect(got.body.post.platformUrl).toBe(`${w.sandbox.url}/_sandbox/platformB/posts/${tweets[0]!.id}`);
  });
});

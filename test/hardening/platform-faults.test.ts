import { randomBytes } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema/index.ts';
import type { ServiceProcess } from '../helpers/processes.ts';
import { createPost, eventsOf, type Member, postRow, uploadImage } from '../posts/world.ts';
import { type ProcessWorld, SERVERS, startProcessWorld, until } from './process-world.ts';

/**
 * The platform misbehaving, seen from the whole service (an API process and worker processes
 * on PostgreSQL and Redis), not from the adapter alone (test/platforms covers that): slow,
 * rate-limiting and failing uploads, failing creates, and a rate-limited metrics read.
 */
describe.runIf(SERVERS)('platform faults at the service level', () => {
  let w: ProcessWorld;
  let m: Member;
  let api: ServiceProcess;
  let workers: ServiceProcess[] = [];
  const tag = randomBytes(3).toString('hex');
  const calls = (route: string) => w.sandbox.platformA.state.calls(route);
  const onPlatform = (text: string) => m.platformPosts().filter((p) => p.text === text);
  const settled = (id: string) =>
    until(`post ${id} to leave publishing`, async () => {
      const r = await postRow(w.t, id);
      return r && r.status !== 'scheduled' && r.status !== 'publishing' ? r : null;
    });

  beforeAll(async () => {
    // A short lease: a slow platform must not make a worker's claim look dead. Short, not tiny:
    // the heartbeat renews at a third of it, and on a loaded machine (CI at a load of 25) a worker
    // can stall for over a second, which a 1.5 s lease turned into a takeover.
    w = await startProcessWorld({ childEnv: { PUBLISH_LEASE_MS: '4000' } });
    m = await w.member();
    api = await w.spawn('api');
  }, 60_000);
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((p) => p.kill('SIGKILL')));
    w.sandbox.platformA.faults.clear();
  });
  afterAll(async () => {
    await w?.close();
  });

  const publishNow = (id: string) => api.request('POST', `/v1/posts/${id}/publish`, { key: m.apiKey });

  it('a slow platform: every post is still published exactly once, and no claim is taken over', async () => {
    workers = await Promise.all([w.spawn('worker'), w.spawn('worker')]);
    const mediaId = await uploadImage(w.t, m);
    // Every platform call takes longer than the publish lease.
    w.sandbox.platformA.faults.latency(5_000);
    const creates = calls('createPost');
    const runAt = Date.now() + 1_000;
    const texts = Array.from({ length: 6 }, (_, i) => `Slow ${tag} ${i}`);
    const ids: string[] = [];
    for (const [i, text] of texts.entries()) {
      const body = { text, channelId: m.channelId, runAt, ...(i % 2 ? { mediaIds: [mediaId] } : {}) };
      ids.push((await createPost(w.t, m, body)).id);
    }
    const now = await createPost(w.t, m, { text: `Slow ${tag} now`, channelId: m.channelId });
    const direct = await publishNow(now.id);
    expect(direct.status, direct.text).toBe(200);
    expect(direct.body.post.status).toBe('published');

    const rows = await until(
      'the slow posts to be published',
      async () => {
        const r = await w.t.service.deps.db.select().from(posts).where(inArray(posts.id, ids));
        return r.every((p) => p.status === 'published') ? r : null;
      },
      90_000,
      250,
    );
    expect(calls('createPost') - creates).toBe(7);
    for (const text of [...texts, `Slow ${tag} now`]) expect(onPlatform(text)).toHaveLength(1);
    for (const row of rows) {
      expect(row.platformPostId).toBe(onPlatform(row.text)[0]!.id);
      // The heartbeat kept the lease: one claim per post, never a recovery takeover.
      expect(row.publishAttempts).toBe(1);
    }
    expect(onPlatform(texts[1]!)[0]!.contentKind).toBe('image');
  }, 120_000);

  it('429 and 5xx on uploads are retried and the post is published once', async () => {
    workers = [await w.spawn('worker')];
    const mediaId = await uploadImage(w.t, m);

    // Publish-now: the upload's init fails once with 503 and the upload twice with 429.
    w.sandbox.platformA.faults.failNext('initImage', 503);
    w.sandbox.platformA.faults.failNext('uploadImage', 429, { times: 2 });
    const [inits, uploads, creates] = [calls('initImage'), calls('uploadImage'), calls('createPost')];
    const post = await createPost(w.t, m, {
      text: `Upload ${tag} now`,
      channelId: m.channelId,
      mediaIds: [mediaId],
    });
    const res = await publishNow(post.id);
    expect(res.status, res.text).toBe(200);
    expect(calls('initImage') - inits).toBe(2);
    expect(calls('uploadImage') - uploads).toBe(3);
    expect(calls('createPost') - creates).toBe(1);
    expect(onPlatform(`Upload ${tag} now`)).toHaveLength(1);
    expect(res.body.post.platformPostId).toBe(onPlatform(`Upload ${tag} now`)[0]!.id);

    // A worker: three 500s on the upload, then success.
    w.sandbox.platformA.faults.failNext('uploadImage', 500, { times: 3 });
    const scheduled = await createPost(w.t, m, {
      text: `Upload ${tag} swept`,
      channelId: m.channelId,
      mediaIds: [mediaId],
      runAt: Date.now() + 500,
    });
    const row = await settled(scheduled.id);
    expect(row).toMatchObject({ status: 'published', error: null, publishAttempts: 1 });
    expect(onPlatform(`Upload ${tag} swept`)).toHaveLength(1);
    expect(onPlatform(`Upload ${tag} swept`)[0]!.contentKind).toBe('image');
  }, 60_000);

  it('uploads rate-limited past the retries: the post waits to retry, nothing is created, then it publishes once', async () => {
    const mediaId = await uploadImage(w.t, m);
    w.sandbox.platformA.faults.failAlways('uploadImage', 429);
    const creates = calls('createPost');
    const post = await createPost(w.t, m, {
      text: `Throttled ${tag}`,
      channelId: m.channelId,
      mediaIds: [mediaId],
    });
    const res = await publishNow(post.id);
    expect(res.status, res.text).toBe(503);
    expect(res.body.error.code).toBe('platform_unavailable');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.body.post).toMatchObject({ id: post.id, status: 'scheduled' });
    expect(res.body.post.error).toMatch(
      /^platform_unavailable: .*rate-limited.*Attempt 1 of 5; retrying automatically at /,
    );
    expect(calls('createPost')).toBe(creates);

    w.sandbox.platformA.faults.clear();
    const again = await publishNow(post.id);
    expect(again.status, again.text).toBe(200);
    expect(again.body.post).toMatchObject({ status: 'published', error: null });
    expect(onPlatform(`Throttled ${tag}`)).toHaveLength(1);
    expect(calls('createPost') - creates).toBe(1);
  }, 60_000);

  it('429 on the create: the platform made nothing, so the post waits to retry and then publishes once', async () => {
    w.sandbox.platformA.faults.failNext('createPost', 429);
    const creates = calls('createPost');
    const post = await createPost(w.t, m, { text: `Create 429 ${tag}`, channelId: m.channelId });
    const res = await publishNow(post.id);
    expect(res.status, res.text).toBe(503);
    expect(res.body.error.code).toBe('platform_unavailable');
    expect(res.body.post).toMatchObject({ id: post.id, status: 'scheduled' });
    expect((await postRow(w.t, post.id))!.createSentAt).toBeNull();
    expect(onPlatform(`Create 429 ${tag}`)).toHaveLength(0);

    const again = await publishNow(post.id);
    expect(again.status, again.text).toBe(200);
    expect(onPlatform(`Create 429 ${tag}`)).toHaveLength(1);
    expect(again.body.post.platformPostId).toBe(onPlatform(`Create 429 ${tag}`)[0]!.id);
    expect(calls('createPost') - creates).toBe(2);
  }, 60_000);

  it('5xx on the create: never re-sent; 502 publish_failed (the post says publish_outcome_unknown), or published when the platform has it', async () => {
    const creates = calls('createPost');

    // Publish-now: the platform answers 500 without creating anything.
    w.sandbox.platformA.faults.failNext('createPost', 500);
    const lost = await createPost(w.t, m, { text: `Create 500 ${tag}`, channelId: m.channelId });
    const res = await publishNow(lost.id);
    expect(res.status, res.text).toBe(502);
    expect(res.body.error.code).toBe('publish_failed');
    expect(res.body.post).toMatchObject({ id: lost.id, status: 'failed' });
    expect(res.body.post.error).toMatch(
      /^publish_outcome_unknown: platformA answered 500.* does not list the post yet/,
    );
    expect(calls('createPost') - creates).toBe(1);

    // The platform creates the post but the answer is lost: found, so published.
    w.sandbox.platformA.faults.dropAfterCreate();
    const found = await createPost(w.t, m, { text: `Create dropped ${tag}`, channelId: m.channelId });
    const ok = await publishNow(found.id);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.post.status).toBe('published');
    expect(onPlatform(`Create dropped ${tag}`)).toHaveLength(1);
    expect(ok.body.post.platformPostId).toBe(onPlatform(`Create dropped ${tag}`)[0]!.id);
    expect(calls('createPost') - creates).toBe(2);

    // A worker meets a 503 on the create of a scheduled post.
    workers = [await w.spawn('worker')];
    w.sandbox.platformA.faults.failNext('createPost', 503);
    const swept = await createPost(w.t, m, {
      text: `Create 503 ${tag}`,
      channelId: m.channelId,
      runAt: Date.now() + 500,
    });
    const sweptRow = await settled(swept.id);
    expect(sweptRow).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^publish_outcome_unknown: /),
    });

    // A later post goes through the same worker: by then nothing was ever sent a second time.
    const sentinel = await createPost(w.t, m, {
      text: `Create sentinel ${tag}`,
      channelId: m.channelId,
      runAt: Date.now() + 500,
    });
    expect((await settled(sentinel.id)).status).toBe('published');
    expect(calls('createPost') - creates).toBe(4);
    expect(onPlatform(`Create 500 ${tag}`)).toHaveLength(0);
    expect(onPlatform(`Create 503 ${tag}`)).toHaveLength(0);
    expect((await postRow(w.t, lost.id))!.status).toBe('failed');
    const failedEvents = (await eventsOf(w.t, m.accountId)).filter((e) => e.type === 'post.failed');
    expect(failedEvents.map((e) => e.post!.id).sort()).toEqual([lost.id, swept.id].sort());
  }, 60_000);

  it('a metrics refresh while the platform rate-limits answers 502 with a clear error and stores nothing', async () => {
    // No worker runs here, so no metrics sweep reads the post behind the test's back.
    const post = await createPost(w.t, m, { text: `Metrics ${tag}`, channelId: m.channelId });
    expect((await publishNow(post.id)).status).toBe(200);

    w.sandbox.platformA.faults.failAlways('analytics', 429);
    const reads = calls('analytics');
    const refresh = await api.request('POST', `/v1/posts/${post.id}/metrics/refresh`, { key: m.apiKey });
    expect(refresh.status, refresh.text).toBe(502);
    expect(refresh.body.error.code).toBe('platform_error');
    expect(refresh.body.error.message).toMatch(/^Reading the post's metrics failed: platformA rate-limited/);
    expect(refresh.text).not.toContain(m.apiKey);
    // The adapter retried the throttled read before giving up.
    expect(calls('analytics') - reads).toBeGreaterThan(1);
    const empty = await api.request('GET', `/v1/posts/${post.id}/metrics`, { key: m.apiKey });
    expect(empty.body).toEqual({ latest: null, history: [] });

    w.sandbox.platformA.faults.clear();
    const ok = await api.request('POST', `/v1/posts/${post.id}/metrics/refresh`, { key: m.apiKey });
    expect(ok.status, ok.text).toBe(200);
    const stored = await api.request('GET', `/v1/posts/${post.id}/metrics`, { key: m.apiKey });
    expect(stored.body.latest).toEqual(ok.body.snapshot);
    expect(stored.body.history).toHaveLength(1);
  }, 60_000);
});

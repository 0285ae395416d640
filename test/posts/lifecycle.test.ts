import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createPost,
  eventsOf,
  type Member,
  type PostWorld,
  postRow,
  startPostWorld,
  uploadImage,
} from './world.ts';

let w: PostWorld;
let alice: Member;

beforeAll(async () => {
  w = await startPostWorld();
  alice = await w.member();
});
afterEach(() => w.sandbox.platformA.faults.clear());
afterAll(async () => {
  await w?.close();
});

const act = (m: Member, id: string, verb: string, body?: unknown) =>
  w.t.request('POST', `/v1/posts/${id}/${verb}`, { key: m.apiKey, body });
const draft = (m: Member, text: string, extra: Record<string, unknown> = {}) =>
  createPost(w.t, m, { text, channelId: m.channelId, ...extra });
const future = () => w.clock.now() + 3_600_000;

describe('draft and schedule', () => {
  it('draft -> scheduled -> re-scheduled: one pending job, replaced', async () => {
    const p = await draft(alice, 'Schedule me');
    const first = future();
    const s1 = await act(alice, p.id, 'schedule', { runAt: first });
    expect(s1.status).toBe(200);
    expect(s1.body.post).toMatchObject({ status: 'scheduled', scheduledFor: first });
    const second = first + 3_600_000;
    const s2 = await act(alice, p.id, 'schedule', { runAt: second });
    expect(s2.body.post).toMatchObject({ status: 'scheduled', scheduledFor: second });

    // At the first time nothing happens: that job was replaced.
    w.clock.advance(first - w.clock.now() + 1000);
    await w.t.service.runner!.runOnce();
    expect((await postRow(w.t, p.id))!.status).toBe('scheduled');
    expect(alice.platformPosts()).toHaveLength(0);
    // At the second time it is published, once.
    w.clock.advance(second - w.clock.now() + 1000);
    await w.t.service.runner!.runOnce();
    const row = await postRow(w.t, p.id);
    expect(row!.status).toBe('published');
    expect(alice.platformPosts().filter((x) => x.text === 'Schedule me')).toHaveLength(1);
  });

  it('refuses a runAt that is not in the future, and a post without a channel', async () => {
    const p = await draft(alice, 'When?');
    const past = await act(alice, p.id, 'schedule', { runAt: w.clock.now() - 1 });
    expect(past.status).toBe(400);
    expect(past.body.error.details[0].path).toBe('runAt');
    expect((await act(alice, p.id, 'schedule', {})).status).toBe(400);
    expect((await act(alice, p.id, 'schedule', { runAt: 'tomorrow' })).status).toBe(400);
    const bare = await createPost(w.t, alice, { text: 'No channel' });
    const noChannel = await act(alice, bare.id, 'schedule', { runAt: future() });
    expect(noChannel.status).toBe(400);
    expect(noChannel.body.error.details[0].path).toBe('channelId');
    expect((await postRow(w.t, p.id))!.status).toBe('draft');
  });

  it('does not schedule canceled, published or failed posts', async () => {
    const p = await draft(alice, 'Canceled then scheduled?');
    await act(alice, p.id, 'cancel');
    const res = await act(alice, p.id, 'schedule', { runAt: future() });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('not_schedulable');
    expect(Object.keys(res.body)).toEqual(['error']);
    expect(res.body.error.post.status).toBe('canceled');
  });
});

describe('publish now', () => {
  it('draft -> publishing -> published, with publishedAt, platformPostId, platformUrl and an event', async () => {
    const p = await draft(alice, 'Hello from Postkit #launch (really)');
    const res = await act(alice, p.id, 'publish');
    expect(res.status, res.text).toBe(200);
    const published = res.body.post;
    expect(published).toMatchObject({ status: 'published', error: null });
    expect(published.publishedAt).toBeGreaterThanOrEqual(p.createdAt as number);
    const onPlatform = alice.platformPosts().find((x) => x.id === published.platformPostId);
    expect(onPlatform?.text).toBe('Hello from Postkit #launch (really)');
    // A sandbox channel's post links to the sandbox's own page for it (the live site knows nothing of it).
    expect(published.platformUrl).toBe(
      `${w.sandbox.url}/_sandbox/platformA/posts/${encodeURIComponent(published.platformPostId)}`,
    );
    const evts = (await eventsOf(w.t, alice.accountId)).filter((e) => e.post?.id === p.id);
    expect(evts).toEqual([
      { type: 'post.published', post: expect.objectContaining({ status: 'published' }) },
    ]);
  });

  it('scheduled -> published by publish-now; a replay gets 409 not_claimable with the post', async () => {
    const p = await draft(alice, 'Scheduled, then now', { runAt: future() });
    expect((await act(alice, p.id, 'publish')).status).toBe(200);
    const again = await act(alice, p.id, 'publish');
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('not_claimable');
    expect(again.body.post).toMatchObject({ id: p.id, status: 'published' });
    expect(alice.platformPosts().filter((x) => x.text === 'Scheduled, then now')).toHaveLength(1);
  });

  it('uploads media: one image, several images, a document, a video', async () => {
    const cases: [string, string[], string][] = [
      ['one image', [await uploadImage(w.t, alice, 'png')], 'image'],
      [
        'two images',
        [await uploadImage(w.t, alice, 'png'), await uploadImage(w.t, alice, 'jpeg')],
        'multiImage',
      ],
      ['a document', [await uploadImage(w.t, alice, 'pdf')], 'document'],
      ['a video', [await uploadImage(w.t, alice, 'mp4')], 'video'],
    ];
    for (const [text, mediaIds, kind] of cases) {
      const p = await draft(alice, `With ${text}`, { mediaIds });
      const res = await act(alice, p.id, 'publish');
      expect(res.status, `${text}: ${res.text}`).toBe(200);
      const onPlatform = alice.platformPosts().find((x) => x.id === res.body.post.platformPostId);
      expect(onPlatform?.contentKind, text).toBe(kind);
    }
  });

  it('refuses a post without a channel with 400, leaving it a draft', async () => {
    const p = await createPost(w.t, alice, { text: 'Orphan' });
    const res = await act(alice, p.id, 'publish');
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('channelId');
    expect((await postRow(w.t, p.id))!.status).toBe('draft');
  });

  it('platform rejection: failed, 502 publish_failed with the post and its error, and a post.failed event', async () => {
    const p = await draft(alice, 'Rejected');
    w.sandbox.platformA.faults.failNext('createPost', 422, {
      code: 'UNPROCESSABLE_ENTITY',
      message: 'commentary rejected',
    });
    const res = await act(alice, p.id, 'publish');
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('publish_failed');
    expect(res.body.post).toMatchObject({
      id: p.id,
      status: 'failed',
      publishedAt: null,
      platformPostId: null,
    });
    expect(res.body.post.error).toMatch(/^publish_failed: .*422/);
    const evts = (await eventsOf(w.t, alice.accountId)).filter((e) => e.post?.id === p.id);
    expect(evts).toEqual([{ type: 'post.failed', post: expect.objectContaining({ status: 'failed' }) }]);
    // Terminal: neither publish nor cancel moves it.
    expect((await act(alice, p.id, 'publish')).body.error.code).toBe('not_claimable');
    const cancel = await act(alice, p.id, 'cancel');
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.code).toBe('post_terminal');
  });

  it('a duplicate is final: failed, never retried', async () => {
    const p = await draft(alice, 'Duplicate');
    w.sandbox.platformA.faults.duplicateNext();
    const res = await act(alice, p.id, 'publish');
    expect(res.status).toBe(502);
    expect(res.body.post.status).toBe('failed');
    expect(res.body.post.error).toContain('duplicate');
  });

  it('revoked at the platform: failed, 409 channel_revoked with the post', async () => {
    const bob = await w.member();
    const p = await draft(bob, 'Revoked');
    w.sandbox.platformA.faults.revoke({ sub: bob.author.split(':').pop()! });
    const res = await act(bob, p.id, 'publish');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('channel_revoked');
    expect(res.body.post).toMatchObject({ id: p.id, status: 'failed' });
    expect(res.body.post.error).toMatch(/^channel_revoked: /);
    const channel = await w.t.request('GET', `/v1/channels/${bob.channelId}`, { key: bob.apiKey });
    expect(channel.body.channel.status).toBe('revoked');
    // A disconnected channel refuses before anything is sent.
    const p2 = await draft(bob, 'After disconnect');
    const res2 = await act(bob, p2.id, 'publish');
    expect(res2.status).toBe(409);
    expect(res2.body.error.code).toBe('channel_revoked');
    expect(res2.body.post.status).toBe('failed');
    expect(bob.platformPosts()).toHaveLength(0);
  });

  it('a transient outage before the create: back to scheduled with the error, retried later, published once', async () => {
    const p = await draft(alice, 'Flaky upload', { mediaIds: [await uploadImage(w.t, alice)] });
    w.sandbox.platformA.faults.failAlways('initImage', 503);
    const res = await act(alice, p.id, 'publish');
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('platform_unavailable');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.body.post).toMatchObject({ id: p.id, status: 'scheduled' });
    expect(res.body.post.error).toMatch(/^platform_unavailable: .*Attempt 1 of 5/);
    const row = await postRow(w.t, p.id);
    expect(row!.retryAt).toBeGreaterThan(w.clock.now());
    expect(row!.createSentAt).toBeNull();

    // Not before its retry time...
    w.sandbox.platformA.faults.clear();
    await w.t.service.runner!.runOnce();
    expect((await postRow(w.t, p.id))!.status).toBe('scheduled');
    // ...then published by the sweep.
    w.clock.advance(row!.retryAt! - w.clock.now() + 1);
    await w.t.service.runner!.runOnce();
    const done = await w.t.request('GET', `/v1/posts/${p.id}`, { key: alice.apiKey });
    expect(done.body.post).toMatchObject({ status: 'published', error: null });
    expect(alice.platformPosts().filter((x) => x.text === 'Flaky upload')).toHaveLength(1);
  });

  it('a lost create answer: the platform is asked, never sent twice', async () => {
    const p = await draft(alice, 'Answer lost');
    const creates = w.sandbox.platformA.state.calls('createPost');
    w.sandbox.platformA.faults.dropAfterCreate();
    const res = await act(alice, p.id, 'publish');
    expect(res.status, res.text).toBe(200);
    expect(res.body.post.status).toBe('published');
    const onPlatform = alice.platformPosts().filter((x) => x.text === 'Answer lost');
    expect(onPlatform).toHaveLength(1);
    expect(res.body.post.platformPostId).toBe(onPlatform[0]!.id);
    expect(w.sandbox.platformA.state.calls('createPost')).toBe(creates + 1);
  });

  it('a lost create answer the platform cannot confirm: 502 publish_failed, the post says publish_outcome_unknown, not re-sent', async () => {
    const p = await draft(alice, 'Answer lost, cannot tell');
    const creates = w.sandbox.platformA.state.calls('createPost');
    w.sandbox.platformA.faults.dropAfterCreate();
    w.sandbox.platformA.faults.authorFinderRestricted = true;
    const res = await act(alice, p.id, 'publish');
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('publish_failed');
    expect(res.body.post).toMatchObject({ status: 'failed' });
    expect(res.body.post.error).toMatch(
      /^publish_outcome_unknown: .*could not confirm whether the post exists/,
    );
    expect(w.sandbox.platformA.state.calls('createPost')).toBe(creates + 1);
    // Recovery and sweeps leave it alone.
    await w.t.service.runner!.runOnce();
    expect(w.sandbox.platformA.state.calls('createPost')).toBe(creates + 1);
  });
});

describe('cancel', () => {
  it('cancels drafts and scheduled posts (whose job is dropped); canceling twice is a no-op', async () => {
    const d = await draft(alice, 'Draft to cancel');
    const c1 = await act(alice, d.id, 'cancel');
    expect(c1.status).toBe(200);
    expect(c1.body.post.status).toBe('canceled');
    const c2 = await act(alice, d.id, 'cancel');
    expect(c2.status).toBe(200);
    expect(c2.body.post).toEqual(c1.body.post);

    const runAt = w.clock.now() + 60_000;
    const s = await draft(alice, 'Scheduled to cancel', { runAt });
    expect((await act(alice, s.id, 'cancel')).body.post.status).toBe('canceled');
    w.clock.advance(120_000);
    await w.t.service.runner!.runOnce();
    expect((await postRow(w.t, s.id))!.status).toBe('canceled');
    expect(alice.platformPosts().some((x) => x.text === 'Scheduled to cancel')).toBe(false);
    const publish = await act(alice, s.id, 'publish');
    expect(publish.status).toBe(409);
    expect(publish.body.error.code).toBe('not_claimable');
    const edit = await w.t.request('PATCH', `/v1/posts/${s.id}`, { key: alice.apiKey, body: { text: 'x' } });
    expect(edit.status).toBe(409);
  });

  it('refuses published posts with 409 post_terminal', async () => {
    const p = await draft(alice, 'Published, then cancel');
    await act(alice, p.id, 'publish');
    const res = await act(alice, p.id, 'cancel');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('post_terminal');
    expect(Object.keys(res.body)).toEqual(['error']);
    expect(res.body.error.post.status).toBe('published');
  });

  it('stops a publish still uploading: nothing reaches the platform', async () => {
    const p = await draft(alice, 'Canceled mid-upload', { mediaIds: [await uploadImage(w.t, alice)] });
    const uploads = w.sandbox.platformA.state.calls('uploadImage');
    const creates = w.sandbox.platformA.state.calls('createPost');
    w.sandbox.platformA.faults.latency(400, 'uploadImage');
    const publishing = act(alice, p.id, 'publish');
    while (w.sandbox.platformA.state.calls('uploadImage') === uploads)
      await new Promise((r) => setTimeout(r, 10));
    const cancel = await act(alice, p.id, 'cancel');
    expect(cancel.status).toBe(200);
    expect(cancel.body.post.status).toBe('canceled');
    const res = await publishing;
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('not_claimable');
    expect(res.body.post.status).toBe('canceled');
    expect(w.sandbox.platformA.state.calls('createPost')).toBe(creates);
    expect((await postRow(w.t, p.id))!.status).toBe('canceled');
  });

  it('cannot call back a create already on its way: 409 post_publishing, then published', async () => {
    const p = await draft(alice, 'Too late to cancel');
    const creates = w.sandbox.platformA.state.calls('createPost');
    w.sandbox.platformA.faults.latency(400, 'createPost');
    const publishing = act(alice, p.id, 'publish');
    while (w.sandbox.platformA.state.calls('createPost') === creates)
      await new Promise((r) => setTimeout(r, 10));
    const cancel = await act(alice, p.id, 'cancel');
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.code).toBe('post_publishing');
    expect(Object.keys(cancel.body)).toEqual(['error']);
    expect(cancel.body.error.post.status).toBe('publishing');
    expect((await publishing).body.post.status).toBe('published');
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { publishSweep } from '../../src/features/posts/publishing/publish.sweep.ts';
import { DUPLICATE_MESSAGE } from '../../src/sandbox/platformB/faults.ts';
import { callOk, connectClient } from '../mcp/helpers.ts';
import {
  expectChainOnPlatform,
  type MemberA,
  type MemberB,
  postEvents,
  startThreadWorld,
  type ThreadWorld,
  threadRow,
  threadTexts,
} from './threads-world.ts';

/**
 * Threads (platformB) and first comments (both platforms) through the API, published against
 * the sandbox over real HTTP: every part once, in order, each recorded before the next is sent.
 */
let w: ThreadWorld;
let b: MemberB;
let a: MemberA;

beforeAll(async () => {
  w = await startThreadWorld();
  b = await w.memberB();
  a = await w.memberA();
});
afterEach(() => {
  w.sandbox.platformB.faults.clear();
  w.sandbox.platformA.faults.clear();
});
afterAll(async () => {
  await w?.close();
});

const create = (m: { apiKey: string }, body: Record<string, unknown>) =>
  w.t.request('POST', '/v1/posts', { key: m.apiKey, body });

async function draft(m: { apiKey: string; channelId: string }, body: Record<string, unknown>) {
  const res = await create(m, { channelId: m.channelId, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.post as { id: string; [k: string]: any };
}

const publish = (m: { apiKey: string }, id: string) =>
  w.t.request('POST', `/v1/posts/${id}/publish`, { key: m.apiKey });

describe('publishing a thread and a first comment', () => {
  it('publishes a 5-part thread on platformB: each part once, each a reply to the one before', async () => {
    const thread = threadTexts('Five parts', 4);
    const p = await draft(b, { text: 'Five parts: the post', thread });
    expect(p).toMatchObject({ thread, firstComment: null, platformPostIds: [], firstCommentId: null });
    const creates = w.sandbox.platformB.state.calls('createTweet');
    const res = await publish(b, p.id);
    expect(res.status, res.text).toBe(200);
    const post = res.body.post;
    expect(post).toMatchObject({ status: 'published', error: null, firstCommentId: null });
    expect(post.platformPostIds).toHaveLength(5);
    expect(post.platformPostIds[0]).toBe(post.platformPostId);
    expectChainOnPlatform(b, post, null);
    expect(w.sandbox.platformB.state.calls('createTweet')).toBe(creates + 5);
    // What GET answers, and what the post.published webhook carries, lists every part.
    const got = await w.t.request('GET', `/v1/posts/${p.id}`, { key: b.apiKey });
    expect(got.body.post).toEqual(post);
    const published = (await postEvents(w, b.accountId)).filter(
      (e) => e.type === 'post.published' && e.post.id === p.id,
    );
    expect(published).toHaveLength(1);
    expect(published[0]!.post.platformPostIds).toEqual(post.platformPostIds);
    expect(published[0]!.post.firstCommentId).toBeNull();
  });

  it('publishes a first comment on platformB as a reply to the last part of the thread', async () => {
    const p = await draft(b, {
      text: 'Thread with a comment',
      thread: ['Thread with a comment: 2/2'],
      firstComment: 'Link in the first reply: https://example.com/a/very/long/path/that/counts/as/23',
    });
    const res = await publish(b, p.id);
    expect(res.status, res.text).toBe(200);
    const post = res.body.post;
    expect(post.platformPostIds).toHaveLength(2);
    expect(post.firstCommentId).toMatch(/^\d+$/);
    expectChainOnPlatform(b, post, post.firstCommentId);
    const [event] = (await postEvents(w, b.accountId)).filter(
      (e) => e.type === 'post.published' && e.post.id === p.id,
    );
    expect(event!.post).toMatchObject({
      platformPostIds: post.platformPostIds,
      firstCommentId: post.firstCommentId,
    });
  });

  it('publishes a first comment on platformA as a comment right under the post', async () => {
    const comments = w.sandbox.platformA.state.calls('createComment');
    const p = await draft(a, {
      text: 'A post with a first comment',
      firstComment: 'The link: https://example.com',
    });
    const res = await publish(a, p.id);
    expect(res.status, res.text).toBe(200);
    const post = res.body.post;
    expect(post.platformPostIds).toEqual([post.platformPostId]);
    const comment = w.sandbox.platformA.state.comments.get(post.firstCommentId)!;
    expect(comment).toMatchObject({
      postUrn: post.platformPostId,
      actor: a.author,
      text: 'The link: https://example.com',
    });
    expect(w.sandbox.platformA.state.calls('createComment')).toBe(comments + 1);
    // The sandbox page shows it under its post.
    const page = await (await fetch(w.sandbox.url)).text();
    expect(page).toContain(comment.id);
    expect(page).toContain('The link: https://example.com');
  });

  it('50 concurrent publish-now calls on one thread publish each part once', async () => {
    const thread = threadTexts('Fifty callers', 4);
    const p = await draft(b, {
      text: 'Fifty callers, one thread',
      thread,
      firstComment: 'Fifty callers: comment',
    });
    const results = await Promise.all(Array.from({ length: 50 }, () => publish(b, p.id)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe('not_claimable');
    const post = (await w.t.request('GET', `/v1/posts/${p.id}`, { key: b.apiKey })).body.post;
    expect(post.status).toBe('published');
    expectChainOnPlatform(b, post, post.firstCommentId);
  });
});

describe('a part that cannot be published', () => {
  it('a 429 on part 3 waits for x-rate-limit-reset, then resumes at part 3: nothing is sent twice', async () => {
    const thread = threadTexts('Rate limited', 4);
    const p = await draft(b, { text: 'Rate limited: the post', thread });
    w.sandbox.platformB.faults.rateLimitNext('createTweet', { after: 2, resetInSeconds: 600 });
    const creates = w.sandbox.platformB.state.calls('createTweet');
    const first = await publish(b, p.id);
    expect(first.status, first.text).toBe(503);
    expect(first.body.error.code).toBe('platform_unavailable');
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThanOrEqual(595);
    expect(first.body.post).toMatchObject({ status: 'scheduled' });
    expect(first.body.post.platformPostIds).toHaveLength(2);
    expect(first.body.post.error).toContain('Part 3 of 5 (thread[1])');
    const row = await threadRow(w, p.id);
    expect(row.retryAt! - w.clock.now()).toBeGreaterThan(590_000);
    expect(row.createSentAt).toBeNull();
    // Parts 1 and 2 are out: the post can no longer be canceled, only finished.
    const cancel = await w.t.request('POST', `/v1/posts/${p.id}/cancel`, { key: b.apiKey });
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.code).toBe('post_publishing');

    const signal = new AbortController().signal;
    await publishSweep.run(w.t.service.deps, signal);
    expect(w.sandbox.platformB.state.calls('createTweet')).toBe(creates + 3);
    w.clock.advance(601_000);
    try {
      await publishSweep.run(w.t.service.deps, signal);
    } finally {
      w.clock.advance(-601_000);
    }
    const post = (await w.t.request('GET', `/v1/posts/${p.id}`, { key: b.apiKey })).body.post;
    expect(post).toMatchObject({ status: 'published', error: null });
    expectChainOnPlatform(b, post, null);
    // 2 creates, the refused 3rd, then parts 3-5: 6 requests, 5 posts.
    expect(w.sandbox.platformB.state.calls('createTweet')).toBe(creates + 6);
  });

  it('a part refused for good fails the post naming the part; the parts before it stay listed', async () => {
    const p = await draft(b, { text: 'Refused later: the post', thread: threadTexts('Refused later', 2) });
    w.sandbox.platformB.faults.inject('createTweet', { status: 403, message: DUPLICATE_MESSAGE, after: 1 });
    const res = await publish(b, p.id);
    expect(res.status, res.text).toBe(502);
    expect(res.body.error.code).toBe('publish_failed');
    expect(res.body.post.status).toBe('failed');
    expect(res.body.post.error).toMatch(/^publish_failed: Part 2 of 3 \(thread\[0\]\): .*duplicate content/);
    expect(res.body.post.error).toContain('The part before it stays published');
    const first = b.tweets('Refused later: the post');
    expect(first).toHaveLength(1);
    expect(res.body.post.platformPostIds).toEqual([first[0]!.id]);
    expect(res.body.post.platformPostId).toBe(first[0]!.id);
    const failed = (await postEvents(w, b.accountId)).filter(
      (e) => e.type === 'post.failed' && e.post.id === p.id,
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]!.post.platformPostIds).toEqual([first[0]!.id]);
  });

  it('a part whose answer is lost is looked up, found, recorded, and the thread goes on', async () => {
    const thread = threadTexts('Answer lost', 3);
    const p = await draft(b, { text: 'Answer lost: the post', thread });
    w.sandbox.platformB.faults.dropAfterCreate(1, 1);
    const creates = w.sandbox.platformB.state.calls('createTweet');
    const res = await publish(b, p.id);
    expect(res.status, res.text).toBe(200);
    expectChainOnPlatform(b, res.body.post, null);
    expect(w.sandbox.platformB.state.calls('createTweet')).toBe(creates + 4);
    expect(w.sandbox.platformB.state.calls('listTweets')).toBeGreaterThan(0);
  });
});

describe('the MCP tools', () => {
  it('create_post takes a thread and a first comment; get_post returns every part once published', async () => {
    const client = await connectClient(w.t.url, b.apiKey);
    try {
      const runAt = w.clock.now() + 60_000;
      const made = await callOk(client, 'create_post', {
        text: 'Agent thread: the post',
        thread: ['Agent thread: 2/2'],
        firstComment: 'Agent thread: comment',
        channelId: b.channelId,
        runAt,
      });
      expect(made.data.post).toMatchObject({
        status: 'scheduled',
        thread: ['Agent thread: 2/2'],
        firstComment: 'Agent thread: comment',
        platformPostIds: [],
      });
      w.clock.advance(61_000);
      try {
        await publishSweep.run(w.t.service.deps, new AbortController().signal);
      } finally {
        w.clock.advance(-61_000);
      }
      const read = await callOk(client, 'get_post', { id: made.data.post.id });
      expect(read.data.post.status).toBe('published');
      expectChainOnPlatform(b, read.data.post, read.data.post.firstCommentId);
      expect(read.summary).toContain('3 of 3 parts published');
    } finally {
      await client.close();
    }
  });
});

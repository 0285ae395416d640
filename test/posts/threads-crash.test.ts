import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../src/db/schema/index.ts';
import { SERVERS } from '../hardening/process-world.ts';
import { killAll, spawnService } from '../helpers/processes.ts';
import { until } from '../helpers/until.ts';
import { B_REDIRECT } from '../platforms/platformB-world.ts';
import {
  expectChainOnPlatform,
  type MemberA,
  type MemberB,
  startThreadWorld,
  type ThreadWorld,
  threadRow,
  threadTexts,
} from './threads-world.ts';
import { crashMidPublish, runPastBackoff } from './world.ts';

/**
 * Exactly once per part when the process publishing a thread dies: recovery resumes at the
 * first part not recorded, asks the platform about a part whose create was sent, and never
 * sends a recorded part again. In-process crashes (a row left as a dead process leaves it) on
 * both backends; a real worker SIGKILLed mid-thread on the server backends.
 */
let w: ThreadWorld;
let b: MemberB;
let a: MemberA;
const LEASE = 60_000;

beforeAll(async () => {
  w = await startThreadWorld({ env: { PUBLISH_LEASE_MS: String(LEASE) } });
  b = await w.memberB();
  a = await w.memberA();
});
afterEach(async () => {
  await killAll();
  w.sandbox.platformB.faults.clear();
  w.sandbox.platformA.faults.clear();
});
afterAll(async () => {
  await w?.close();
});

async function eventsOfPost(id: string) {
  const rows = await w.t.service.deps.db.select().from(events).where(eq(events.accountId, a.accountId));
  return rows
    .map((r) => ({ type: r.type, ...(r.payload as { post?: { id: string; status: string } }).post }))
    .filter((e) => e.id === id);
}

async function publishedThread(m: { apiKey: string; channelId: string }, body: Record<string, unknown>) {
  const created = await w.t.request('POST', '/v1/posts', {
    key: m.apiKey,
    body: { channelId: m.channelId, ...body },
  });
  expect(created.status, created.text).toBe(201);
  const res = await w.t.request('POST', `/v1/posts/${created.body.post.id}/publish`, { key: m.apiKey });
  expect(res.status, res.text).toBe(200);
  return res.body.post as {
    id: string;
    platformPostIds: string[];
    firstCommentId: string | null;
    [k: string]: any;
  };
}

/**
 * Rewinds a published post to the moment a process died after sending the create of the
 * part after `recorded` parts: claimed long ago by a process that is gone, "create sent" set,
 * and only the first `recorded` parts written down.
 */
async function crashAfterSending(id: string, recorded: number, comment = false) {
  const row = await threadRow(w, id);
  await crashMidPublish(w, id, {
    leaseMs: LEASE,
    createSent: true,
    extra: {
      publishedAt: null,
      threadPostIds: row.threadPostIds.slice(0, recorded - 1),
      firstCommentId: comment ? null : row.firstCommentId,
    },
  });
}

describe('recovery of a thread whose publisher died', () => {
  it('part 3 reached the platform: it is found, recorded, and parts 4-5 follow; nothing is sent twice', async () => {
    const post = await publishedThread(b, {
      text: 'Crash found: the post',
      thread: threadTexts('Crash found', 4),
    });
    // Parts 4 and 5 were never sent: take them off the platform, as if the process died before.
    const state = w.sandbox.platformB.state;
    for (const id of post.platformPostIds.slice(3)) state.tweets.delete(id);
    await crashAfterSending(post.id, 2);
    const creates = state.calls('createTweet');
    await w.t.service.runner!.runOnce();
    const row = await threadRow(w, post.id);
    expect(row).toMatchObject({ status: 'published', error: null });
    expect(row.threadPostIds[1]).toBe(post.platformPostIds[2]);
    expect(state.calls('createTweet')).toBe(creates + 2);
    const got = (await w.t.request('GET', `/v1/posts/${post.id}`, { key: b.apiKey })).body.post;
    expectChainOnPlatform(b, got, null);
  });

  it('part 3 never reached the platform (it lists no such post): part 3 is sent once more, then the rest', async () => {
    const post = await publishedThread(b, {
      text: 'Crash absent: the post',
      thread: threadTexts('Crash absent', 4),
    });
    const state = w.sandbox.platformB.state;
    for (const id of post.platformPostIds.slice(2)) state.tweets.delete(id);
    await crashAfterSending(post.id, 2);
    const creates = state.calls('createTweet');
    const lists = state.calls('listTweets');
    await w.t.service.runner!.runOnce();
    expect((await threadRow(w, post.id)).status).toBe('published');
    expect(state.calls('createTweet')).toBe(creates + 3);
    expect(state.calls('listTweets')).toBeGreaterThan(lists);
    const got = (await w.t.request('GET', `/v1/posts/${post.id}`, { key: b.apiKey })).body.post;
    expectChainOnPlatform(b, got, null);
    expect(got.platformPostIds.slice(0, 2)).toEqual(post.platformPostIds.slice(0, 2));
  });

  it('a platformA first comment whose answer was lost is found under the post and not sent again', async () => {
    const post = await publishedThread(a, {
      text: 'Comment crash: found',
      firstComment: 'Comment crash: found, comment',
    });
    await crashAfterSending(post.id, 1, true);
    const comments = w.sandbox.platformA.state.calls('createComment');
    await w.t.service.runner!.runOnce();
    const row = await threadRow(w, post.id);
    expect(row).toMatchObject({ status: 'published', firstCommentId: post.firstCommentId });
    expect(w.sandbox.platformA.state.calls('createComment')).toBe(comments);
  });

  it('a platformA first comment its post does not list is sent once more: the post ends published with one comment', async () => {
    const post = await publishedThread(a, {
      text: 'Comment crash: absent',
      firstComment: 'Comment crash: absent, comment',
    });
    // The dead process's create never landed: the platform has no such comment.
    w.sandbox.platformA.state.comments.delete(post.firstCommentId!);
    await crashAfterSending(post.id, 1, true);
    const comments = w.sandbox.platformA.state.calls('createComment');
    const lists = w.sandbox.platformA.state.calls('listComments');
    await w.t.service.runner!.runOnce();
    const got = (await w.t.request('GET', `/v1/posts/${post.id}`, { key: a.apiKey })).body.post;
    expect(got).toMatchObject({ status: 'published', error: null, platformPostIds: [post.platformPostId] });
    expect(w.sandbox.platformA.state.calls('listComments')).toBe(lists + 1);
    expect(w.sandbox.platformA.state.calls('createComment')).toBe(comments + 1);
    const under = [...w.sandbox.platformA.state.comments.values()].filter(
      (c) => c.postUrn === post.platformPostId,
    );
    expect(under.map((c) => [c.id, c.text])).toEqual([
      [got.firstCommentId, 'Comment crash: absent, comment'],
    ]);
  });

  it('a platformA first comment that cannot be looked up yet is not sent: the post waits, then the comment is sent once the platform answers', async () => {
    const post = await publishedThread(a, {
      text: 'Comment crash: no listing',
      firstComment: 'Comment crash: no listing, comment',
    });
    w.sandbox.platformA.state.comments.delete(post.firstCommentId!);
    await crashAfterSending(post.id, 1, true);
    // Every read of the post's comments fails (reads are retried, then give up).
    w.sandbox.platformA.faults.failAlways('listComments', 503);
    const comments = w.sandbox.platformA.state.calls('createComment');
    await w.t.service.runner!.runOnce();
    const waiting = (await w.t.request('GET', `/v1/posts/${post.id}`, { key: a.apiKey })).body.post;
    expect(waiting).toMatchObject({
      status: 'publishing',
      platformPostIds: [post.platformPostId],
      firstCommentId: null,
    });
    expect(waiting.error).toMatch(
      /^publish_outcome_pending: The first comment: The process publishing this post stopped after sending this part to the platform\. The platform cannot say yet whether it has it \(asking the platform failed: .+\), so it is not sent again until the platform shows it missing\. The post itself is published\. It is looked up again at .+Z\.$/,
    );
    expect(w.sandbox.platformA.state.calls('createComment')).toBe(comments);
    w.sandbox.platformA.faults.clear();
    const row = await threadRow(w, post.id);
    await runPastBackoff(w, row!.retryAt!);
    const got = (await w.t.request('GET', `/v1/posts/${post.id}`, { key: a.apiKey })).body.post;
    expect(got).toMatchObject({ status: 'published', error: null, platformPostIds: [post.platformPostId] });
    expect(w.sandbox.platformA.state.calls('createComment')).toBe(comments + 1);
    const under = [...w.sandbox.platformA.state.comments.values()].filter(
      (c) => c.postUrn === post.platformPostId,
    );
    expect(under.map((c) => [c.id, c.text])).toEqual([
      [got.firstCommentId, 'Comment crash: no listing, comment'],
    ]);
    const events = await eventsOfPost(post.id);
    expect(events.at(-1)).toMatchObject({ type: 'post.published', status: 'published' });
  });

  it('a platformA first comment refused when sent once more: the post is published, the comment reported', async () => {
    const post = await publishedThread(a, {
      text: 'Comment crash: refused',
      firstComment: 'Comment crash: refused, comment',
    });
    w.sandbox.platformA.state.comments.delete(post.firstCommentId!);
    await crashAfterSending(post.id, 1, true);
    w.sandbox.platformA.faults.failNext('createComment', 422, {
      message: 'Comment is not allowed on this post',
    });
    const comments = w.sandbox.platformA.state.calls('createComment');
    await w.t.service.runner!.runOnce();
    const got = (await w.t.request('GET', `/v1/posts/${post.id}`, { key: a.apiKey })).body.post;
    expect(got).toMatchObject({
      status: 'published',
      firstCommentId: null,
      platformPostIds: [post.platformPostId],
    });
    expect(got.error).toMatch(/^first_comment_failed: The first comment: .+ The post itself is published\.$/);
    expect(w.sandbox.platformA.state.calls('createComment')).toBe(comments + 1);
  });

  it('a first comment whose create answer is cut in a live publish: looked up, not re-sent, the post is published', async () => {
    const created = await w.t.request('POST', '/v1/posts', {
      key: a.apiKey,
      body: { channelId: a.channelId, text: 'Comment cut live', firstComment: 'Comment cut live, comment' },
    });
    // The comment's connection drops before the platform does anything: it lists no such comment.
    w.sandbox.platformA.faults.dropNext('createComment');
    const res = await w.t.request('POST', `/v1/posts/${created.body.post.id}/publish`, { key: a.apiKey });
    expect(res.status, res.text).toBe(200);
    const got = res.body.post;
    expect(got).toMatchObject({ status: 'published', firstCommentId: null });
    expect(got.platformPostIds).toHaveLength(1);
    expect(got.error).toMatch(
      /^first_comment_failed: The first comment: .+ The platform does not list the comment yet; it was not sent again in case that create still lands, so check the post and add the comment yourself if it is missing\. The post itself is published\.$/,
    );
  });
});

describe.runIf(SERVERS)('a worker process SIGKILLed in the middle of a thread', () => {
  it('resumes in the next worker without a duplicate part', async () => {
    const env = {
      DATABASE_URL: w.t.config.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      KIT_VAULT_KEY: w.vaultKey,
      ...w.sandbox.platformA.env(w.redirectUri),
      ...w.sandbox.platformB.env(B_REDIRECT),
      PLATFORMB_BACKOFF_SCALE: '0.001',
      DATA_DIR: w.dataDir,
      SWEEP_INTERVAL_MS: '1000',
      PUBLISH_LEASE_MS: '2000',
    };
    const m = await w.memberB();
    const state = w.sandbox.platformB.state;
    const first = await spawnService('worker', env);
    // Each create takes a while, so the kill lands while part 3 is in flight.
    w.sandbox.platformB.faults.latency(700, 'createTweet');
    const creates = state.calls('createTweet');
    const thread = threadTexts('Killed mid-thread', 4);
    const created = await w.t.request('POST', '/v1/posts', {
      key: m.apiKey,
      body: { text: 'Killed mid-thread: the post', thread, channelId: m.channelId, runAt: Date.now() + 500 },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.post.id;
    await until('part 3 to reach the platform', () => state.calls('createTweet') >= creates + 3, 30_000, 10);
    await first.kill('SIGKILL');
    const crashed = await threadRow(w, id);
    expect(crashed.status).toBe('publishing');
    expect(crashed.createSentAt).not.toBeNull();
    expect(crashed.threadPostIds).toHaveLength(1);
    // Let the platform finish the request its dead caller sent, then recover in a new worker.
    await new Promise((r) => setTimeout(r, 1_000));
    w.sandbox.platformB.faults.clear();
    await spawnService('worker', env);
    const row = await until(
      'the thread to publish',
      async () => {
        const r = await threadRow(w, id);
        return r.status !== 'publishing' ? r : null;
      },
      50_000,
      100,
    );
    expect(row.status, row.error ?? '').toBe('published');
    const post = (await w.t.request('GET', `/v1/posts/${id}`, { key: m.apiKey })).body.post;
    expectChainOnPlatform(m, post, null);
    // Part 3 was sent once by the dead worker and found by the next one (or, had it not
    // landed, sent once more): 5 or 6 requests, never a second post.
    expect([creates + 5, creates + 6]).toContain(state.calls('createTweet'));
  }, 90_000);
});

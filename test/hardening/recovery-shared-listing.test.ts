import { eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema/index.ts';
import { type MemberA, type MemberB, startThreadWorld, type ThreadWorld } from '../posts/threads-world.ts';
import { crashMidPublish } from '../posts/world.ts';

/**
 * Recovery after a busy minute (issue 37 item 1): a crash leaves many creates in doubt on one
 * channel, and the channel has many more posts since than a listing of a few pages reaches.
 * One listing of the channel, reaching back to the oldest create in doubt however many pages
 * that takes, settles every one of them; a create past the platform's own window (platformB's
 * timeline lists only a member's most recent posts: 1,000 in this sandbox) fails, with the parts
 * that are live recorded.
 */
let w: ThreadWorld;
const LEASE = 60_000;
const WINDOW = 1_000;

beforeAll(async () => {
  w = await startThreadWorld({
    env: { PUBLISH_LEASE_MS: String(LEASE) },
    sandbox: { platformB: { timelineLimit: WINDOW } },
  });
});
afterEach(() => {
  w.sandbox.platformB.faults.clear();
  w.sandbox.platformA.faults.clear();
});
afterAll(async () => {
  await w?.close();
});

const db = () => w.t.service.deps.db;

async function drafts(m: { apiKey: string; channelId: string }, texts: string[], extra = {}) {
  const ids: string[] = [];
  for (const text of texts) {
    const res = await w.t.request('POST', '/v1/posts', {
      key: m.apiKey,
      body: { text, channelId: m.channelId, ...extra },
    });
    expect(res.status, res.text).toBe(201);
    ids.push(res.body.post.id);
  }
  return ids;
}

/** Leaves each post as a process that died after sending its create leaves it, oldest first. */
async function crashAll(ids: string[]) {
  for (const id of ids) await crashMidPublish(w, id, { leaseMs: LEASE, createSent: true });
  const then = (await db().select().from(posts).where(eq(posts.id, ids[0]!)))[0]!.createSentAt!;
  // Creates in doubt a second apart: the listing must reach back to the oldest.
  for (const [i, id] of ids.entries()) {
    await db()
      .update(posts)
      .set({ createSentAt: then - (ids.length - i) * 1_000 })
      .where(eq(posts.id, id));
  }
  return then - ids.length * 1_000;
}

const rowsOf = (ids: string[]) => db().select().from(posts).where(inArray(posts.id, ids));

describe('one listing of a channel settles every create in doubt', () => {
  it('platformB: 20 creates in doubt under 700 later posts: all settled from one listing of 8 pages', async () => {
    const m: MemberB = await w.memberB();
    const state = w.sandbox.platformB.state;
    const texts = Array.from({ length: 20 }, (_, i) => `Busy minute B ${i}`);
    const ids = await drafts(m, texts);
    const oldest = await crashAll(ids);
    // The even ones had landed before their process died; the odd ones never left.
    const landed = new Map<string, string>();
    for (const [i, text] of texts.entries()) {
      if (i % 2 === 1) continue;
      const id = state.newTweetId();
      state.tweets.set(id, {
        id,
        authorId: m.userId,
        text,
        mediaIds: [],
        replyTo: null,
        createdAt: oldest + i * 1_000 + 500,
        deletedAt: null,
        metrics: {},
      } as never);
      landed.set(text, id);
    }
    // A busy minute since: 700 posts of the member, more than five pages of 100.
    for (let i = 0; i < 700; i++) {
      const id = state.newTweetId();
      state.tweets.set(id, {
        id,
        authorId: m.userId,
        text: `Other post ${i} of a busy minute`,
        mediaIds: [],
        replyTo: null,
        createdAt: oldest + 25_000 + i * 10,
        deletedAt: null,
        metrics: {},
      } as never);
    }
    const lists = state.calls('listTweets');
    const creates = state.calls('createTweet');
    await w.t.service.runner!.runOnce();
    const rows = await rowsOf(ids);
    for (const row of rows) {
      expect(row.status, `${row.text}: ${row.error}`).toBe('published');
      const there = m.tweets(row.text);
      expect(there, row.text).toHaveLength(1);
      expect(row.platformPostId).toBe(there[0]!.id);
      if (landed.has(row.text)) expect(row.platformPostId).toBe(landed.get(row.text));
    }
    // Only the ten that never left were sent, once each.
    expect(state.calls('createTweet') - creates).toBe(10);
    // One listing of the 710 posts since the oldest create, not one per post.
    expect(state.calls('listTweets') - lists).toBe(8);
  });

  it('platformA: 10 creates in doubt under 600 later posts (beyond ten pages of 50): all settled from one listing', async () => {
    const m: MemberA = await w.memberA();
    const state = w.sandbox.platformA.state;
    const template = await drafts(m, ['Busy minute A template']);
    const published = await w.t.request('POST', `/v1/posts/${template[0]}/publish`, { key: m.apiKey });
    expect(published.status, published.text).toBe(200);
    const base = state.posts.get(published.body.post.platformPostId)!;
    const texts = Array.from({ length: 10 }, (_, i) => `Busy minute A ${i}`);
    const ids = await drafts(m, texts);
    const oldest = await crashAll(ids);
    const add = (commentary: string, createdAt: number) => {
      const { metrics: _metrics, ...rest } = base;
      return state.addPost({ ...rest, id: state.newPostUrn(base.contentKind), commentary, createdAt });
    };
    const landed = new Map<string, string>();
    for (const [i, text] of texts.entries()) {
      if (i % 2 === 0) landed.set(text, add(text, oldest + i * 1_000 + 500).id);
    }
    for (let i = 0; i < 600; i++) add(`Other post ${i} of a busy minute`, oldest + 15_000 + i * 10);
    const lists = state.calls('findPosts');
    const creates = state.calls('createPost');
    await w.t.service.runner!.runOnce();
    const rows = await rowsOf(ids);
    for (const row of rows) {
      expect(row.status, `${row.text}: ${row.error}`).toBe('published');
      const there = state.listPosts({ author: m.author }).filter((p) => p.commentary === row.text);
      expect(there, row.text).toHaveLength(1);
      expect(row.platformPostId).toBe(there[0]!.id);
      if (landed.has(row.text)) expect(row.platformPostId).toBe(landed.get(row.text));
    }
    expect(state.calls('createPost') - creates).toBe(5);
    // 606 posts since the oldest create (the template, five that landed, 600 more): 13 pages of 50.
    expect(state.calls('findPosts') - lists).toBe(13);
  });
});

describe('past the platform’s window', () => {
  it('platformB: a thread part in doubt under more posts than the timeline lists fails, its live parts recorded', async () => {
    const m: MemberB = await w.memberB();
    const state = w.sandbox.platformB.state;
    const thread = ['Past the window: part 2', 'Past the window: part 3'];
    const [id] = await drafts(m, ['Past the window: the post'], { thread });
    const first = await w.t.request('POST', `/v1/posts/${id}/publish`, { key: m.apiKey });
    expect(first.status, first.text).toBe(200);
    const [partOne, , partThree] = first.body.post.platformPostIds as string[];
    // The process died with part 1 recorded and part 2's create sent (it landed, but recovery
    // cannot see that: the timeline no longer reaches back to it); part 3 was never sent.
    state.tweets.delete(partThree!);
    await crashMidPublish(w, id!, {
      leaseMs: LEASE,
      createSent: true,
      extra: { publishedAt: null, threadPostIds: [], platformPostId: partOne!, firstCommentId: null },
    });
    for (let i = 0; i < WINDOW; i++) {
      const tid = state.newTweetId();
      state.tweets.set(tid, {
        id: tid,
        authorId: m.userId,
        text: `Later post ${i}`,
        mediaIds: [],
        replyTo: null,
        createdAt: w.clock.now() - 30_000 + i,
        deletedAt: null,
        metrics: {},
      } as never);
    }
    const creates = state.calls('createTweet');
    await w.t.service.runner!.runOnce();
    const res = await w.t.request('GET', `/v1/posts/${id}`, { key: m.apiKey });
    expect(res.body.post).toMatchObject({ status: 'failed', platformPostIds: [partOne] });
    expect(res.body.post.error).toMatch(
      /^publish_outcome_unknown: Part 2 of 3 \(thread\[0\]\): The process publishing this post stopped after sending this part to the platform\. Whether the platform has it could not be settled \(platformB lists only a member’s 1,000 most recent posts, and as many were created since\), so it was not sent again\. Check the profile and create a new post if it is missing\. The part before it stays published \(platformPostIds\)\.$/,
    );
    expect(state.calls('createTweet')).toBe(creates);
  });
});

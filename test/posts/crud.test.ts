import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, type Member, type PostWorld, startPostWorld, uploadImage } from './world.ts';

let w: PostWorld;
let alice: Member;
let bob: Member;

beforeAll(async () => {
  w = await startPostWorld();
  alice = await w.member();
  bob = await w.member();
});
afterAll(async () => {
  await w?.close();
});

const POST_KEYS = [
  'accountId',
  'approval',
  'brandId',
  'channelId',
  'createdAt',
  'error',
  'firstComment',
  'firstCommentId',
  'groupId',
  'id',
  'mediaIds',
  'platform',
  'platformPostId',
  'platformPostIds',
  'platformUrl',
  'publishedAt',
  'scheduledFor',
  'seriesId',
  'status',
  'text',
  'thread',
  'updatedAt',
];

async function brandOf(m: Member) {
  const res = await w.t.request('POST', '/v1/brands', { key: m.apiKey, body: { name: 'Brand' } });
  expect(res.status, res.text).toBe(201);
  return res.body.brand.id as string;
}

const post = (m: Member, body: unknown) => w.t.request('POST', '/v1/posts', { key: m.apiKey, body });

describe('create', () => {
  it('creates a draft with exactly the contract fields, platform from the channel', async () => {
    const brandId = await brandOf(alice);
    const mediaId = await uploadImage(w.t, alice);
    const res = await post(alice, {
      text: 'Hello world',
      channelId: alice.channelId,
      brandId,
      mediaIds: [mediaId],
    });
    expect(res.status).toBe(201);
    const p = res.body.post;
    expect(Object.keys(p).sort()).toEqual(POST_KEYS);
    expect(p).toMatchObject({
      accountId: alice.accountId,
      brandId,
      channelId: alice.channelId,
      platform: 'platformA',
      status: 'draft',
      text: 'Hello world',
      mediaIds: [mediaId],
      scheduledFor: null,
      publishedAt: null,
      platformPostId: null,
      platformUrl: null,
      thread: [],
      firstComment: null,
      platformPostIds: [],
      firstCommentId: null,
      error: null,
      groupId: null,
    });
    expect(p.id).toMatch(/^pst_/);
    const got = await w.t.request('GET', `/v1/posts/${p.id}`, { key: alice.apiKey });
    expect(got.body.post).toEqual(p);
  });

  it('creates a channel-less draft on platformA by default', async () => {
    const p = await createPost(w.t, alice, { text: 'No channel yet' });
    expect(p).toMatchObject({ channelId: null, platform: 'platformA', status: 'draft' });
  });

  it('creates a scheduled post when runAt is in the future, and refuses a past runAt or a missing channel', async () => {
    const runAt = Date.now() + 3_600_000;
    const p = await createPost(w.t, alice, { text: 'Later', channelId: alice.channelId, runAt });
    expect(p).toMatchObject({ status: 'scheduled', scheduledFor: runAt });
    const past = await post(alice, {
      text: 'Too late',
      channelId: alice.channelId,
      runAt: Date.now() - 1000,
    });
    expect(past.status).toBe(400);
    expect(past.body.error.details).toEqual([{ path: 'runAt', message: expect.stringContaining('future') }]);
    // The time a person reads is ISO 8601, never an epoch number.
    expect(past.body.error.details[0].message).toMatch(
      /^Must be in the future \(it is now \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)$/,
    );
    const noChannel = await post(alice, { text: 'Nowhere', runAt });
    expect(noChannel.status).toBe(400);
    expect(noChannel.body.error.details.map((d: { path: string }) => d.path)).toEqual(['channelId']);
  });

  it('validates the text against the platform limit', async () => {
    expect((await post(alice, { text: 'x'.repeat(3000), channelId: alice.channelId })).status).toBe(201);
    const long = await post(alice, { text: 'x'.repeat(3001), channelId: alice.channelId });
    expect(long.status).toBe(400);
    expect(long.body.error.details[0]).toMatchObject({ path: 'text' });
    const blank = await post(alice, { text: '  \n ' });
    expect(blank.status).toBe(400);
    expect(blank.body.error.details[0].path).toBe('text');
    expect((await post(alice, {})).status).toBe(400);
    expect((await post(alice, { text: 'hi', extra: 1 })).status).toBe(400);
  });

  it('publishes to platformA and platformB only; an explicit platform must match the channel', async () => {
    const draft = await post(alice, { text: 'hi', platform: 'platformB' });
    expect(draft.status, draft.text).toBe(201);
    expect(draft.body.post.platform).toBe('platformB');
    for (const body of [{ platform: 'myspace' }, { platform: 'platformB', channelId: alice.channelId }]) {
      const res = await post(alice, { text: 'hi', ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details[0].path).toBe('platform');
    }
  });

  it("refuses references that are not the caller's, naming each", async () => {
    const theirBrand = await brandOf(bob);
    const theirMedia = await uploadImage(w.t, bob);
    const res = await post(alice, {
      text: 'Borrowed',
      channelId: bob.channelId,
      brandId: theirBrand,
      mediaIds: [theirMedia, 'med_nope'],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(
      ['brandId', 'channelId', 'mediaIds[0]', 'mediaIds[1]'].sort(),
    );
    expect(JSON.stringify(res.body)).not.toContain(bob.accountId);
  });

  it('checks the media form a set the platform carries', async () => {
    const img1 = await uploadImage(w.t, alice, 'png');
    const img2 = await uploadImage(w.t, alice, 'jpeg');
    const video = await uploadImage(w.t, alice, 'mp4');
    const pdf = await uploadImage(w.t, alice, 'pdf');
    const ok = async (mediaIds: string[]) => (await post(alice, { text: 'm', mediaIds })).status;
    expect(await ok([img1, img2])).toBe(201);
    expect(await ok([video])).toBe(201);
    expect(await ok([pdf])).toBe(201);
    expect(await ok([img1, video])).toBe(400);
    expect(await ok([video, pdf])).toBe(400);
    const twice = await post(alice, { text: 'm', mediaIds: [img1, img1] });
    expect(twice.status).toBe(400);
    expect(twice.body.error.details[0].path).toBe('mediaIds[1]');
    expect(await ok(Array.from({ length: 21 }, () => img1))).toBe(400);
  });

  it('honours Idempotency-Key: a replay returns the first response and creates nothing', async () => {
    const body = { text: `Idempotent ${Date.now()}`, channelId: alice.channelId };
    const headers = { 'idempotency-key': `k-${Date.now()}` };
    const first = await w.t.request('POST', '/v1/posts', { key: alice.apiKey, body, headers });
    const again = await w.t.request('POST', '/v1/posts', { key: alice.apiKey, body, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body).toEqual(first.body);
    const list = await w.t.request('GET', '/v1/posts?limit=100', { key: alice.apiKey });
    expect(list.body.posts.filter((p: { text: string }) => p.text === body.text)).toHaveLength(1);
  });
});

describe('list, get, edit, delete', () => {
  it('lists newest first, filters by status, paginates', async () => {
    const carol = await w.member();
    const d1 = await createPost(w.t, carol, { text: 'one' });
    await new Promise((r) => setTimeout(r, 3));
    const s1 = await createPost(w.t, carol, {
      text: 'two',
      channelId: carol.channelId,
      runAt: Date.now() + 60_000,
    });
    await new Promise((r) => setTimeout(r, 3));
    const d2 = await createPost(w.t, carol, { text: 'three' });
    const all = await w.t.request('GET', '/v1/posts', { key: carol.apiKey });
    expect(all.body.posts.map((p: { id: string }) => p.id)).toEqual([d2.id, s1.id, d1.id]);
    const drafts = await w.t.request('GET', '/v1/posts?status=draft', { key: carol.apiKey });
    expect(drafts.body.posts.map((p: { id: string }) => p.id)).toEqual([d2.id, d1.id]);
    const page = await w.t.request('GET', '/v1/posts?limit=1&offset=1', { key: carol.apiKey });
    expect(page.body.posts.map((p: { id: string }) => p.id)).toEqual([s1.id]);
    expect(page.body.pagination).toEqual({ limit: 1, offset: 1, hasMore: true });
    expect((await w.t.request('GET', '/v1/posts?status=bogus', { key: carol.apiKey })).status).toBe(400);
  });

  it('edits drafts only, re-checking references', async () => {
    const p = await createPost(w.t, alice, { text: 'before' });
    const res = await w.t.request('PATCH', `/v1/posts/${p.id}`, {
      key: alice.apiKey,
      body: { text: 'after', channelId: alice.channelId },
    });
    expect(res.status).toBe(200);
    expect(res.body.post).toMatchObject({ text: 'after', channelId: alice.channelId, status: 'draft' });
    expect(res.body.post.updatedAt).toBeGreaterThanOrEqual(p.updatedAt as number);
    const cleared = await w.t.request('PATCH', `/v1/posts/${p.id}`, {
      key: alice.apiKey,
      body: { channelId: null },
    });
    expect(cleared.body.post.channelId).toBeNull();
    const bad = await w.t.request('PATCH', `/v1/posts/${p.id}`, {
      key: alice.apiKey,
      body: { channelId: bob.channelId },
    });
    expect(bad.status).toBe(400);
    const tooLong = await w.t.request('PATCH', `/v1/posts/${p.id}`, {
      key: alice.apiKey,
      body: { text: 'y'.repeat(3001) },
    });
    expect(tooLong.status).toBe(400);

    const scheduled = await createPost(w.t, alice, {
      text: 's',
      channelId: alice.channelId,
      runAt: Date.now() + 60_000,
    });
    const refused = await w.t.request('PATCH', `/v1/posts/${scheduled.id}`, {
      key: alice.apiKey,
      body: { text: 'x' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('not_draft');
    // CONTRACT.md's Error schema has the single key `error`: the post rides inside it.
    expect(Object.keys(refused.body)).toEqual(['error']);
    expect(refused.body.error.post).toMatchObject({ id: scheduled.id, status: 'scheduled', text: 's' });
  });

  it('moves a draft to the platform of the channel it moves to; a channel-less draft takes a platform', async () => {
    // A platformB draft with a thread, written before any channel was chosen.
    const p = await createPost(w.t, alice, {
      text: 'written first',
      platform: 'platformB',
      thread: ['part 2'],
    });
    expect(p).toMatchObject({ platform: 'platformB', channelId: null });
    const patch = (body: unknown) => w.t.request('PATCH', `/v1/posts/${p.id}`, { key: alice.apiKey, body });
    // Onto alice's platformA channel: the platform follows; platformA has no threads, so the thread goes.
    const moved = await patch({ channelId: alice.channelId, thread: [] });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.post).toMatchObject({ platform: 'platformA', channelId: alice.channelId, thread: [] });
    // An explicit platform still has to match the channel.
    const mismatch = await patch({ platform: 'platformB' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.details.map((d: { path: string }) => d.path)).toEqual(['platform']);
    // Off the channel, the platform is the writer's to pick.
    const free = await patch({ channelId: null, platform: 'platformB' });
    expect(free.body.post).toMatchObject({ platform: 'platformB', channelId: null });
    expect((await patch({ platform: 'myspace' })).status).toBe(400);
  });

  it('deletes a post', async () => {
    const p = await createPost(w.t, alice, { text: 'bye' });
    const res = await w.t.request('DELETE', `/v1/posts/${p.id}`, { key: alice.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true });
    expect((await w.t.request('GET', `/v1/posts/${p.id}`, { key: alice.apiKey })).status).toBe(404);
    expect((await w.t.request('DELETE', `/v1/posts/${p.id}`, { key: alice.apiKey })).status).toBe(404);
  });

  it("answers 404 on every {id} route for another account's post, and changes nothing", async () => {
    const p = await createPost(w.t, alice, { text: 'mine', channelId: alice.channelId });
    const routes: [string, string, unknown?][] = [
      ['GET', `/v1/posts/${p.id}`],
      ['PATCH', `/v1/posts/${p.id}`, { text: 'theirs' }],
      ['DELETE', `/v1/posts/${p.id}`],
      ['POST', `/v1/posts/${p.id}/publish`],
      ['POST', `/v1/posts/${p.id}/schedule`, { runAt: Date.now() + 60_000 }],
      ['POST', `/v1/posts/${p.id}/cancel`],
      ['POST', `/v1/posts/${p.id}/score`],
      ['GET', `/v1/posts/${p.id}/scores`],
    ];
    for (const [method, path, body] of routes) {
      const res = await w.t.request(method, path, { key: bob.apiKey, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    const still = await w.t.request('GET', `/v1/posts/${p.id}`, { key: alice.apiKey });
    expect(still.body.post).toMatchObject({ status: 'draft', text: 'mine' });
    expect(alice.platformPosts()).toHaveLength(0);
  });

  it('needs an API key', async () => {
    expect((await w.t.request('GET', '/v1/posts')).status).toBe(401);
    expect((await w.t.request('POST', '/v1/posts', { body: { text: 'x' } })).status).toBe(401);
  });
});

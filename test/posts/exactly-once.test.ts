import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema/index.ts';
import {
  crashMidPublish,
  createPost,
  type Member,
  type PostWorld,
  postRow,
  startPostWorld,
  uploadImage,
} from './world.ts';

let w: PostWorld;
let alice: Member;
const LEASE = 60_000;

beforeAll(async () => {
  w = await startPostWorld({ env: { PUBLISH_LEASE_MS: String(LEASE) } });
  alice = await w.member();
});
afterEach(() => w.sandbox.platformA.faults.clear());
afterAll(async () => {
  await w?.close();
});

const draft = (text: string, extra: Record<string, unknown> = {}) =>
  createPost(w.t, alice, { text, channelId: alice.channelId, ...extra });

describe('exactly once', () => {
  it('50 concurrent publish-now calls make one platform post', async () => {
    const p = await draft('Fifty callers, one post', { mediaIds: [await uploadImage(w.t, alice)] });
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        w.t.request('POST', `/v1/posts/${p.id}/publish`, { key: alice.apiKey }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body.error.code).toBe('not_claimable');
      expect(r.body.post.id).toBe(p.id);
      expect(['publishing', 'published']).toContain(r.body.post.status);
    }
    expect(alice.platformPosts().filter((x) => x.text === 'Fifty callers, one post')).toHaveLength(1);
  });

  it('the sweep and publish-now racing on due posts publish each once', async () => {
    const runAt = w.clock.now() + 1_000;
    const items = Array.from({ length: 20 }, (_, i) => ({
      text: `Race ${i}`,
      channelId: alice.channelId,
      runAt,
    }));
    const bulk = await w.t.request('POST', '/v1/posts/bulk-schedule', { key: alice.apiKey, body: { items } });
    expect(bulk.status, bulk.text).toBe(201);
    w.clock.advance(2_000);
    await Promise.all([
      w.t.service.runner!.runOnce(),
      ...bulk.body.posts.map((p: { id: string }) =>
        w.t.request('POST', `/v1/posts/${p.id}/publish`, { key: alice.apiKey }),
      ),
    ]);
    await w.t.service.runner!.runOnce();
    for (let i = 0; i < 20; i++) {
      expect(
        alice.platformPosts().filter((x) => x.text === `Race ${i}`),
        `Race ${i}`,
      ).toHaveLength(1);
    }
  });
});

describe('claims', () => {
  it('a due-sweep claim takes at most its limit, oldest due first, and never a claimed post twice', async () => {
    const bob = await w.member();
    const base = w.clock.now();
    const items = Array.from({ length: 12 }, (_, i) => ({
      text: `Claim order ${i}`,
      channelId: bob.channelId,
      runAt: base + 1_000 + (11 - i) * 10,
    }));
    const bulk = await w.t.request('POST', '/v1/posts/bulk-schedule', { key: bob.apiKey, body: { items } });
    expect(bulk.status).toBe(201);
    w.clock.advance(2_000);
    const ids = new Set(bulk.body.posts.map((p: { id: string }) => p.id));
    const { claimDue } = await import('../../src/features/posts/publishing/claims.ts');
    const first = (await claimDue(w.t.service.deps, 5)).filter((c) => ids.has(c.row.id));
    expect(first).toHaveLength(5);
    expect(first.map((c) => c.row.text).sort()).toEqual(
      ['Claim order 7', 'Claim order 8', 'Claim order 9', 'Claim order 10', 'Claim order 11'].sort(),
    );
    expect(first.every((c) => c.row.status === 'publishing' && c.row.claimedBy === c.token)).toBe(true);
    const rest = (await claimDue(w.t.service.deps, 50)).filter((c) => ids.has(c.row.id));
    expect(rest).toHaveLength(7);
    expect(new Set([...first, ...rest].map((c) => c.row.id)).size).toBe(12);
  });
});

describe('recovery of posts left in publishing', () => {
  it('a claim that died before the create was sent is published by recovery, once', async () => {
    const p = await draft('Died before sending');
    await crashMidPublish(w, p.id, { leaseMs: LEASE, createSent: false });
    const creates = w.sandbox.platformA.state.calls('createPost');
    await w.t.service.runner!.runOnce();
    const row = await postRow(w.t, p.id);
    expect(row!.status).toBe('published');
    expect(alice.platformPosts().filter((x) => x.text === 'Died before sending')).toHaveLength(1);
    expect(w.sandbox.platformA.state.calls('createPost')).toBe(creates + 1);
  });

  it('a live claim (within its lease) is left alone', async () => {
    const p = await draft('Still being published elsewhere');
    await w.t.service.deps.db
      .update(posts)
      .set({ status: 'publishing', claimedAt: w.clock.now(), claimedBy: 'other:y' })
      .where(eq(posts.id, p.id));
    await w.t.service.runner!.runOnce();
    expect((await postRow(w.t, p.id))!.status).toBe('publishing');
    expect(alice.platformPosts().some((x) => x.text === 'Still being published elsewhere')).toBe(false);
  });

  it('a create sent before the crash that reached the platform is found, not re-sent', async () => {
    const p = await draft('Sent, then crashed');
    const ok = await w.t.request('POST', `/v1/posts/${p.id}/publish`, { key: alice.apiKey });
    const platformPostId = ok.body.post.platformPostId;
    // Rewind our record to the moment between sending the create and hearing back.
    await w.t.service.deps.db
      .update(posts)
      .set({ publishedAt: null, platformPostId: null, platformUrl: null })
      .where(eq(posts.id, p.id));
    await crashMidPublish(w, p.id, { leaseMs: LEASE, createSent: true });
    const creates = w.sandbox.platformA.state.calls('createPost');
    await w.t.service.runner!.runOnce();
    const row = await postRow(w.t, p.id);
    expect(row).toMatchObject({ status: 'published', platformPostId });
    expect(w.sandbox.platformA.state.calls('createPost')).toBe(creates);
  });

  it('a lost create is not mistaken for a same-text post of the channel whose create is in flight', async () => {
    // A series' occurrences due seconds apart: B's create has landed but B's process has not
    // recorded its id yet when A (whose create was lost) is recovered. A must not take B's post.
    const text = 'Same words, two occurrences';
    const a = await draft(text);
    const b = await draft(text);
    const sent = await w.t.request('POST', `/v1/posts/${b.id}/publish`, { key: alice.apiKey });
    expect(sent.status, sent.text).toBe(200);
    const bPlatformId = sent.body.post.platformPostId;
    await w.t.service.deps.db
      .update(posts)
      .set({
        status: 'publishing',
        publishedAt: null,
        platformPostId: null,
        platformUrl: null,
        claimedAt: w.clock.now(),
        claimedBy: 'live-process:b',
        createSentAt: w.clock.now(),
      })
      .where(eq(posts.id, b.id));
    await crashMidPublish(w, a.id, { leaseMs: LEASE, createSent: true });
    // B's process hears back and records its id while A's recovery is running.
    const recordB = new Promise<void>((resolve, reject) =>
      setTimeout(() => {
        w.t.service.deps.db
          .update(posts)
          .set({
            status: 'published',
            platformPostId: bPlatformId,
            publishedAt: w.clock.now(),
            claimedBy: null,
          })
          .where(eq(posts.id, b.id))
          .then(() => resolve(), reject);
      }, 600),
    );
    await Promise.all([w.t.service.runner!.runOnce(), recordB]);
    const rowA = await postRow(w.t, a.id);
    expect(rowA!.status).toBe('published');
    expect(rowA!.platformPostId).not.toBe(bPlatformId);
    expect(alice.platformPosts().filter((x) => x.text === text)).toHaveLength(2);
  });

  it('a create sent before the crash that the platform cannot settle fails as publish_outcome_unknown', async () => {
    // "Not found" is re-sent (test/hardening/recovery-resend.test.ts); a platform that cannot
    // list the member's posts settles nothing, so nothing is sent again.
    const p = await draft('Sent? Nobody knows');
    await crashMidPublish(w, p.id, { leaseMs: LEASE, createSent: true });
    const creates = w.sandbox.platformA.state.calls('createPost');
    w.sandbox.platformA.faults.authorFinderRestricted = true;
    await w.t.service.runner!.runOnce().finally(() => {
      w.sandbox.platformA.faults.authorFinderRestricted = false;
    });
    const res = await w.t.request('GET', `/v1/posts/${p.id}`, { key: alice.apiKey });
    expect(res.body.post.status).toBe('failed');
    expect(res.body.post.error).toMatch(/^publish_outcome_unknown: /);
    expect(w.sandbox.platformA.state.calls('createPost')).toBe(creates);
  });

  it('a stale claim holder that wakes up after recovery cannot send', async () => {
    const p = await draft('Slow holder', { mediaIds: [await uploadImage(w.t, alice)] });
    // The holder is mid-upload when its lease lapses (e.g. it was paused) and recovery takes over.
    w.sandbox.platformA.faults.latency(300, 'uploadImage');
    const slow = w.t.request('POST', `/v1/posts/${p.id}/publish`, { key: alice.apiKey });
    const uploads = w.sandbox.platformA.state.calls('uploadImage');
    while (w.sandbox.platformA.state.calls('uploadImage') === uploads)
      await new Promise((r) => setTimeout(r, 10));
    await w.t.service.deps.db
      .update(posts)
      .set({ claimedAt: w.clock.now() - LEASE - 1 })
      .where(eq(posts.id, p.id));
    w.sandbox.platformA.faults.clear();
    await w.t.service.runner!.runOnce();
    const res = await slow;
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('not_claimable');
    expect((await postRow(w.t, p.id))!.status).toBe('published');
    expect(alice.platformPosts().filter((x) => x.text === 'Slow holder')).toHaveLength(1);
  });
});

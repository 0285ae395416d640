import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema/index.ts';
import {
  crashMidPublish,
  createPost,
  type Member,
  type PostWorld,
  postRow,
  runPastBackoff,
  startPostWorld,
} from '../posts/world.ts';

/**
 * Recovery of a post whose process died after recording "create sent" (issue 14), on platformA:
 * the platform is asked; where it says it has no such post the create is sent again (platformA
 * refuses an identical post with 422 DUPLICATE_POST, so a second post cannot appear); a duplicate
 * answer is looked up and recorded as published; a look-up that cannot answer yet leaves the post
 * `publishing` (`publish_outcome_pending`) until it is asked again; only what the platform can no
 * longer settle ends as `publish_outcome_unknown`, with the post's error saying what was tried.
 */
let w: PostWorld;
let alice: Member;
const LEASE = 60_000;

beforeAll(async () => {
  w = await startPostWorld({ env: { PUBLISH_LEASE_MS: String(LEASE) } });
  alice = await w.member();
});
afterEach(() => {
  w.sandbox.platformA.faults.clear();
  w.sandbox.platformA.faults.authorFinderRestricted = false;
});
afterAll(async () => {
  await w?.close();
});

const draft = (text: string) => createPost(w.t, alice, { text, channelId: alice.channelId });

/**
 * Publishes `text`, then forgets the outcome and crashes mid-publish with the create sent: the
 * post is on the platform, and the post row does not know it.
 */
async function landedThenCrashed(text: string) {
  const p = await draft(text);
  const ok = await w.t.request('POST', `/v1/posts/${p.id}/publish`, { key: alice.apiKey });
  const platformPostId: string = ok.body.post.platformPostId;
  await w.t.service.deps.db
    .update(posts)
    .set({ publishedAt: null, platformPostId: null, platformUrl: null })
    .where(eq(posts.id, p.id));
  await crashMidPublish(w, p.id, { leaseMs: LEASE, createSent: true });
  return { p, platformPostId };
}

const onPlatform = (text: string) => alice.platformPosts().filter((p) => p.text === text);

describe('recovery of a create sent by a process that died', () => {
  it('lookup says not found: the create is sent again and the post is published once', async () => {
    const text = 'Never reached the platform';
    const p = await draft(text);
    await crashMidPublish(w, p.id, { leaseMs: LEASE, createSent: true });
    const creates = w.sandbox.platformA.state.calls('createPost');
    await w.t.service.runner!.runOnce();
    const row = await postRow(w.t, p.id);
    expect(row).toMatchObject({ status: 'published', error: null });
    expect(onPlatform(text)).toHaveLength(1);
    expect(row!.platformPostId).toBe(onPlatform(text)[0]!.id);
    expect(w.sandbox.platformA.state.calls('createPost')).toBe(creates + 1);
  });

  it('re-send answered duplicate: the first create had landed; it is looked up and recorded, not posted twice', async () => {
    const text = 'Landed while nobody was looking';
    const { p, platformPostId } = await landedThenCrashed(text);
    // The first create lands on the platform only after recovery's lookup (a slow request):
    // hidden from the listing until the re-send arrives, which the platform refuses as a
    // duplicate, as the live platform does.
    const landed = w.sandbox.platformA.state.posts.get(platformPostId)!;
    w.sandbox.platformA.state.posts.delete(platformPostId);
    w.sandbox.platformA.faults.latency(200, 'createPost');
    w.sandbox.platformA.faults.duplicateNext();
    const creates = w.sandbox.platformA.state.calls('createPost');
    const recovery = w.t.service.runner!.runOnce();
    while (w.sandbox.platformA.state.calls('createPost') === creates)
      await new Promise((r) => setTimeout(r, 5));
    w.sandbox.platformA.state.posts.set(platformPostId, landed);
    await recovery;
    expect(await postRow(w.t, p.id)).toMatchObject({ status: 'published', platformPostId, error: null });
    expect(onPlatform(text)).toHaveLength(1);
    expect(w.sandbox.platformA.state.calls('createPost')).toBe(creates + 1);
  });

  it('re-send answered duplicate but the post cannot be found again: publish_outcome_unknown saying so', async () => {
    const text = 'Duplicate nowhere to be seen';
    const p = await draft(text);
    await crashMidPublish(w, p.id, { leaseMs: LEASE, createSent: true });
    w.sandbox.platformA.faults.duplicateNext();
    await w.t.service.runner!.runOnce();
    const res = await w.t.request('GET', `/v1/posts/${p.id}`, { key: alice.apiKey });
    expect(res.body.post.status).toBe('failed');
    expect(res.body.post.error).toMatch(/^publish_outcome_unknown: .*sent again.*duplicate.*did not find it/);
    expect(onPlatform(text)).toHaveLength(0);
  });

  it('lookup unavailable: the post waits in publishing with the reason, and is settled once the platform answers', async () => {
    const text = 'Platform listing down';
    const p = await draft(text);
    await crashMidPublish(w, p.id, { leaseMs: LEASE, createSent: true });
    w.sandbox.platformA.faults.failAlways('findPosts', 503);
    const creates = w.sandbox.platformA.state.calls('createPost');
    await w.t.service.runner!.runOnce();
    const res = await w.t.request('GET', `/v1/posts/${p.id}`, { key: alice.apiKey });
    expect(res.body.post.status).toBe('publishing');
    expect(res.body.post.error).toMatch(
      /^publish_outcome_pending: The process publishing this post stopped after sending it to the platform\. The platform cannot say yet whether it has it \(asking the platform failed: .+\), so it is not sent again until the platform shows it missing\. It is looked up again at \d{4}-\d\d-\d\dT[\d:.]+Z\.$/,
    );
    expect(w.sandbox.platformA.state.calls('createPost')).toBe(creates);
    const row = await postRow(w.t, p.id);
    expect(row).toMatchObject({ claimedBy: null, claimedAt: null });
    expect(row!.createSentAt).not.toBeNull();
    // Before its time the sweep leaves it; once the listing answers and the backoff passed, the
    // platform shows no such post and it is sent again, once.
    await w.t.service.runner!.runOnce();
    expect((await postRow(w.t, p.id))!.status).toBe('publishing');
    w.sandbox.platformA.faults.clear();
    await runPastBackoff(w, row!.retryAt!);
    expect(await postRow(w.t, p.id)).toMatchObject({ status: 'published', error: null, retryAt: null });
    expect(onPlatform(text)).toHaveLength(1);
    expect(w.sandbox.platformA.state.calls('createPost')).toBe(creates + 1);
  });

  it('lookup unavailable while the create had landed: once the platform answers it is found, not sent again', async () => {
    const text = 'Landed, listing down';
    const { p, platformPostId } = await landedThenCrashed(text);
    w.sandbox.platformA.faults.failAlways('findPosts', 503);
    const creates = w.sandbox.platformA.state.calls('createPost');
    await w.t.service.runner!.runOnce();
    const row = await postRow(w.t, p.id);
    expect(row).toMatchObject({ status: 'publishing', claimedBy: null });
    w.sandbox.platformA.faults.clear();
    await runPastBackoff(w, row!.retryAt!);
    expect(await postRow(w.t, p.id)).toMatchObject({ status: 'published', platformPostId, error: null });
    expect(onPlatform(text)).toHaveLength(1);
    expect(w.sandbox.platformA.state.calls('createPost')).toBe(creates);
  });

  it('a platform that cannot list the member’s posts (403, as the live one): not sent again', async () => {
    const text = 'Finder restricted';
    const p = await draft(text);
    await crashMidPublish(w, p.id, { leaseMs: LEASE, createSent: true });
    w.sandbox.platformA.faults.authorFinderRestricted = true;
    const creates = w.sandbox.platformA.state.calls('createPost');
    await w.t.service.runner!.runOnce();
    const res = await w.t.request('GET', `/v1/posts/${p.id}`, { key: alice.apiKey });
    expect(res.body.post.status).toBe('failed');
    expect(res.body.post.error).toMatch(/^publish_outcome_unknown: .*\(403\).*not sent again/);
    expect(w.sandbox.platformA.state.calls('createPost')).toBe(creates);
  });
});

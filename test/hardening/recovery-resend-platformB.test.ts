import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema/index.ts';
import type { ChannelWorld } from '../channels/helpers.ts';
import { until } from '../helpers/until.ts';
import { connectedB, startWorldB } from '../platforms/platformB-world.ts';
import { crashMidPublish, postRow, runPastBackoff } from '../posts/world.ts';

/**
 * The recovery of recovery-resend.test.ts on platformB: a create sent by a process that died is
 * looked up in the member's posts since it was sent; where the platform has none it is sent
 * again (platformB refuses identical text with 403 duplicate content, so a second post cannot
 * appear); a duplicate answer is looked up and recorded; an unavailable lookup settles nothing
 * until the platform answers again.
 */
let w: ChannelWorld;
let apiKey: string;
let channelId: string;
let memberId: string;
const LEASE = 60_000;

beforeAll(async () => {
  w = await startWorldB({ env: { PUBLISH_LEASE_MS: String(LEASE) } });
  ({ apiKey } = await w.t.signup());
  const channel = await connectedB(w, apiKey);
  channelId = channel.id;
  memberId = channel.platformUserId;
});
afterEach(() => {
  w.sandbox.platformB.faults.clear();
});
afterAll(async () => {
  await w?.close();
});

const faults = () => w.sandbox.platformB.faults;
const creates = () => w.sandbox.platformB.state.calls('createTweet');
const onPlatform = (text: string) =>
  w.sandbox.platformB.state.listTweets({ authorId: memberId }).filter((t) => t.text === text);

async function draft(text: string): Promise<string> {
  const res = await w.t.request('POST', '/v1/posts', { key: apiKey, body: { text, channelId } });
  expect(res.status, res.text).toBe(201);
  return res.body.post.id;
}

describe('platformB: recovery of a create sent by a process that died', () => {
  it('lookup says not found: the create is sent again and the post is published once', async () => {
    const text = 'Never reached platformB';
    const id = await draft(text);
    await crashMidPublish(w, id, { leaseMs: LEASE, createSent: true });
    const before = creates();
    await w.t.service.runner!.runOnce();
    const row = await postRow(w.t, id);
    expect(row).toMatchObject({ status: 'published', error: null });
    expect(onPlatform(text)).toHaveLength(1);
    expect(row!.platformPostId).toBe(onPlatform(text)[0]!.id);
    expect(creates()).toBe(before + 1);
  });

  it('re-send answered duplicate: the first create had landed; it is looked up and recorded, not posted twice', async () => {
    const text = 'Landed on platformB while nobody was looking';
    const id = await draft(text);
    const ok = await w.t.request('POST', `/v1/posts/${id}/publish`, { key: apiKey });
    expect(ok.status, ok.text).toBe(200);
    const platformPostId: string = ok.body.post.platformPostId;
    await w.t.service.deps.db
      .update(posts)
      .set({ publishedAt: null, platformPostId: null, platformUrl: null })
      .where(eq(posts.id, id));
    await crashMidPublish(w, id, { leaseMs: LEASE, createSent: true });
    // The first create shows up only after recovery's lookup (a slow request): hidden from the
    // listing until the re-send arrives, which the platform refuses as duplicate content.
    const tweets = w.sandbox.platformB.state.tweets;
    const landed = tweets.get(platformPostId)!;
    tweets.delete(platformPostId);
    faults().latency(200, 'createTweet');
    faults().duplicateNext();
    const before = creates();
    const recovery = w.t.service.runner!.runOnce();
    await until('the re-send to reach platformB', () => creates() > before, 10_000, 5);
    tweets.set(platformPostId, landed);
    await recovery;
    expect(await postRow(w.t, id)).toMatchObject({ status: 'published', platformPostId, error: null });
    expect(onPlatform(text)).toHaveLength(1);
    expect(creates()).toBe(before + 1);
  });

  it('lookup unavailable: the post waits in publishing with the reason, and is settled once the platform answers', async () => {
    const text = 'platformB listing down';
    const id = await draft(text);
    await crashMidPublish(w, id, { leaseMs: LEASE, createSent: true });
    faults().failAlways('listTweets', 503);
    const before = creates();
    await w.t.service.runner!.runOnce();
    const res = await w.t.request('GET', `/v1/posts/${id}`, { key: apiKey });
    expect(res.body.post.status).toBe('publishing');
    expect(res.body.post.error).toMatch(
      /^publish_outcome_pending: .*cannot say yet whether it has it \(asking the platform failed: .+\), so it is not sent again until the platform shows it missing\. It is looked up again at .+Z\.$/,
    );
    expect(creates()).toBe(before);
    expect(onPlatform(text)).toHaveLength(0);
    faults().clear();
    const row = await postRow(w.t, id);
    await runPastBackoff(w, row!.retryAt!);
    expect(await postRow(w.t, id)).toMatchObject({ status: 'published', error: null });
    expect(onPlatform(text)).toHaveLength(1);
    expect(creates()).toBe(before + 1);
  });
  it('the re-send’s answer lost too and the listing down: the post waits a lease, then is found, posted once', async () => {
    const text = 'Re-sent, answer lost, listing down';
    const id = await draft(text);
    await crashMidPublish(w, id, { leaseMs: LEASE, createSent: true });
    // Recovery's listing shows no such post; the re-send lands but its answer is lost; every
    // listing after that fails (the adapter's retries included).
    faults().dropAfterCreate(1);
    faults().failAlways('listTweets', 503, { after: 1 });
    const before = creates();
    await w.t.service.runner!.runOnce();
    const waiting = await postRow(w.t, id);
    expect(waiting).toMatchObject({ status: 'publishing', claimedBy: null });
    expect(waiting!.error).toMatch(
      /^publish_outcome_pending: .*so it was sent again, and the answer to that was lost too\. The platform cannot say yet whether it has it \(asking the platform failed: .+\), so it is not sent again until the platform shows it missing\. It is looked up again at .+Z\.$/,
    );
    // No sooner than a lease after the re-send.
    expect(waiting!.retryAt!).toBeGreaterThanOrEqual(waiting!.createSentAt! + LEASE);
    expect(onPlatform(text)).toHaveLength(1);
    faults().clear();
    await runPastBackoff(w, waiting!.retryAt!);
    const row = await postRow(w.t, id);
    expect(row).toMatchObject({ status: 'published', error: null, platformPostId: onPlatform(text)[0]!.id });
    expect(onPlatform(text)).toHaveLength(1);
    expect(creates()).toBe(before + 1);
  });
});

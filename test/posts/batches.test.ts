import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema/index.ts';
import { transitionEach } from '../../src/features/posts/core/transitions.ts';
import {
  type Claim,
  claimDue,
  markCreateSent,
  nextWorkAfter,
} from '../../src/features/posts/publishing/claims.ts';
import { markPublished } from '../../src/features/posts/publishing/publish-outcome.ts';
import { createPost, eventsOf, type Member, type PostWorld, postRow, startPostWorld } from './world.ts';

/**
 * The batched writes of a burst (docs/publishing.md, "Bursts"): claims, "create sent" and
 * outcomes of many posts share statements, and each post's write still holds only under its
 * own claim. Driven directly, with the runner paused.
 */
let w: PostWorld;
let m: Member;
const LEASE = 60_000;

beforeAll(async () => {
  w = await startPostWorld({ env: { PUBLISH_LEASE_MS: String(LEASE) } });
  m = await w.member();
});
afterAll(async () => {
  await w?.close();
});

const deps = () => w.t.service.deps;

/** `n` posts due now, claimed by the due sweep's claim. */
async function claimed(n: number, prefix: string): Promise<Claim[]> {
  const runAt = w.clock.now() + 1_000;
  for (let i = 0; i < n; i++)
    await createPost(w.t, m, { text: `${prefix} ${i}`, channelId: m.channelId, runAt });
  w.clock.advance(2_000);
  const claims = await claimDue(deps(), 100);
  expect(claims.map((c) => c.row.text).sort()).toEqual(Array.from({ length: n }, (_, i) => `${prefix} ${i}`));
  return claims;
}

/** Another claim takes the post over, as recovery would after a lapsed lease. */
async function takeOver(claim: Claim) {
  await deps().db.update(posts).set({ claimedBy: 'someone-else:x' }).where(eq(posts.id, claim.row.id));
}

describe('batched publishing writes', () => {
  it('claims a batch in one go, with each post’s channel read alongside', async () => {
    const claims = await claimed(3, 'Batch claim');
    expect(new Set(claims.map((c) => c.token)).size).toBe(1);
    for (const c of claims) {
      expect(c.row.status).toBe('publishing');
      expect(c.channel?.id).toBe(m.channelId);
    }
    // Nothing is left to claim twice.
    expect(await claimDue(deps(), 100)).toEqual([]);
  });

  it('marks "create sent" for creates leaving together, only where the claim still holds', async () => {
    const [a, b, c] = await claimed(3, 'Create sent');
    await takeOver(b!);
    const sent = await Promise.all([a, b, c].map((claim) => markCreateSent(deps(), claim!, false)));
    expect(sent).toEqual([true, false, true]);
    const rows = await deps()
      .db.select()
      .from(posts)
      .where(inArray(posts.id, [a!.row.id, b!.row.id, c!.row.id]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(a!.row.id)!.createSentAt).not.toBeNull();
    expect(byId.get(b!.row.id)!.createSentAt).toBeNull();
    expect(byId.get(c!.row.id)!.createSentAt).not.toBeNull();
    // A second first send of the same create is refused: it was recorded already.
    expect(await markCreateSent(deps(), a!, false)).toBe(false);
  });

  it('finalises outcomes arriving together, each post and its event only under its own claim', async () => {
    const claims = await claimed(4, 'Outcome');
    await takeOver(claims[1]!);
    const outcomes = await Promise.all(
      claims.map((claim, i) =>
        markPublished(deps(), claim, { platformPostId: `urn:li:share:${i}`, platformUrl: `https://x/${i}` }),
      ),
    );
    expect(outcomes.map((o) => o.kind)).toEqual(['published', 'lost', 'published', 'published']);
    for (const [i, claim] of claims.entries()) {
      const row = await postRow(w.t, claim.row.id);
      if (i === 1) {
        expect(row!.status).toBe('publishing');
        expect(row!.platformPostId).toBeNull();
      } else {
        expect(row!.status).toBe('published');
        expect(row!.platformPostId).toBe(`urn:li:share:${i}`);
        expect(row!.platformUrl).toBe(`https://x/${i}`);
      }
    }
    const published = (await eventsOf(w.t, m.accountId)).filter(
      (e) => e.type === 'post.published' && e.post?.id && claims.some((c) => c.row.id === e.post!.id),
    );
    expect(published.map((e) => e.post!.id).sort()).toEqual(
      [claims[0]!, claims[2]!, claims[3]!].map((c) => c.row.id).sort(),
    );
  });

  it('refuses a batch whose entries write different columns', async () => {
    await expect(
      transitionEach(deps().db, 'succeed', [
        { id: 'a', claimedBy: 't', changes: { platformPostId: 'x' } },
        { id: 'b', claimedBy: 't', changes: { platformUrl: 'y' } },
      ]),
    ).rejects.toThrow(TypeError);
  });

  it('tells the runner the next future time it has work: a due time, a retry or a lapsing lease', async () => {
    const other = await w.member();
    const now = w.clock.now();
    const ownPosts = async () =>
      (await deps().db.select({ id: posts.id }).from(posts).where(eq(posts.accountId, other.accountId))).map(
        (r) => r.id,
      );
    // Nothing of this member's yet; any time reported is before the ones set below or absent.
    const due = now + 50_000;
    await createPost(w.t, other, { text: 'Later', channelId: other.channelId, runAt: due });
    const before = await nextWorkAfter(deps(), now);
    expect(before).not.toBeNull();
    expect(before!).toBeLessThanOrEqual(due);
    // A retry whose backoff ends sooner, on a post already past its time.
    const [id] = await ownPosts();
    await deps()
      .db.update(posts)
      .set({ scheduledFor: now - 1_000, retryAt: now + 20_000 })
      .where(eq(posts.id, id!));
    const retry = await nextWorkAfter(deps(), now);
    expect(retry!).toBeLessThanOrEqual(now + 20_000);
    // A claim renewed a moment ago lapses a lease from now.
    await deps()
      .db.update(posts)
      .set({ status: 'publishing', retryAt: null, claimedAt: now - LEASE + 5_000, claimedBy: 'p:x' })
      .where(eq(posts.id, id!));
    // (The first moment it can be taken over: recovery takes claims strictly older than the lease.)
    expect(await nextWorkAfter(deps(), now)).toBe(now + 5_001);
  });

  it('reports work that fell due or lapsed while a run was busy, and nothing due before the run began', async () => {
    const other = await w.member();
    // A run that began `since` (far past every other test's rows) and has just ended.
    const since = w.clock.now() + 5_000_000;
    const early = await createPost(w.t, other, {
      text: 'Due before the run',
      channelId: other.channelId,
      runAt: since - 1,
    });
    const during = await createPost(w.t, other, {
      text: 'Due during the run',
      channelId: other.channelId,
      runAt: since + 300,
    });
    const lapsed = await createPost(w.t, other, {
      text: 'Lapsed during the run',
      channelId: other.channelId,
      runAt: since + 900_000,
    });
    await deps()
      .db.update(posts)
      .set({ status: 'publishing', claimedAt: since - LEASE + 200, claimedBy: 'dead:x' })
      .where(eq(posts.id, lapsed.id));
    // Both are past by now, yet reported: the runner comes back for them at once.
    expect(await nextWorkAfter(deps(), since)).toBe(since + 201);
    await deps().db.update(posts).set({ status: 'failed', claimedBy: null }).where(eq(posts.id, lapsed.id));
    expect(await nextWorkAfter(deps(), since)).toBe(since + 300);
    // A claim lapsing exactly at the run's start was not yet takeable then: still reported.
    await deps()
      .db.update(posts)
      .set({ status: 'publishing', claimedAt: since - LEASE, claimedBy: 'dead:y' })
      .where(eq(posts.id, lapsed.id));
    expect(await nextWorkAfter(deps(), since)).toBe(since + 1);
    await deps().db.update(posts).set({ status: 'failed', claimedBy: null }).where(eq(posts.id, lapsed.id));
    // Claimed by the run: no longer work, and its lease lapses a lease from its claim.
    await deps()
      .db.update(posts)
      .set({ status: 'publishing', claimedAt: since + 300, claimedBy: 'live:x' })
      .where(eq(posts.id, during.id));
    expect(await nextWorkAfter(deps(), since)).toBe(since + 300 + LEASE + 1);
    // The post due before the run began was the run's to claim: never reported (no spin).
    expect(await nextWorkAfter(deps(), since - 2)).toBe(since - 1);
    expect((await postRow(w.t, early.id))!.status).toBe('scheduled');
  });
});

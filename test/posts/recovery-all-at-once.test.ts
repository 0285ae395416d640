import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema/index.ts';
import { crashMidPublish, createPost, type Member, type PostWorld, startPostWorld } from './world.ts';

/**
 * A process that died holding many claims is recovered in one run, however many: the sweep
 * takes over every lapsed claim it sees (issue 26: 32 per run left the rest for a later run,
 * 15-30 s on). Here the pool holds 4 and 45 claims lapsed, with no due post besides.
 */
let w: PostWorld;
let m: Member;
const LEASE = 60_000;

beforeAll(async () => {
  w = await startPostWorld({ env: { PUBLISH_LEASE_MS: String(LEASE), PUBLISH_CONCURRENCY: '4' } });
  m = await w.member();
});
afterAll(async () => {
  await w?.close();
});

describe('recovery of a dead process’s claims', () => {
  it('takes over and publishes every lapsed claim in one run, beyond the pool size', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 45; i++) {
      const post = await createPost(w.t, m, {
        text: `Held by a dead worker ${i}`,
        channelId: m.channelId,
        runAt: w.clock.now() + 600_000,
      });
      ids.push(post.id);
      // Half died before sending, half after: recovery looks the sent ones up first.
      await crashMidPublish(w, post.id, { leaseMs: LEASE, createSent: i % 2 === 1 });
    }
    const runAt = w.clock.now();
    const handled = await w.t.service.runner!.runOnce();
    expect(handled.publish).toBe(45);
    const rows = await w.t.service.deps.db.select().from(posts).where(inArray(posts.id, ids));
    for (const row of rows) {
      expect(row.status, row.error ?? '').toBe('published');
      // Taken over by this run (the claim's time is the take-over), not a later one.
      expect(row.claimedAt!).toBeGreaterThanOrEqual(runAt);
      expect(row.claimedBy).not.toBe('dead-process:x');
    }
    const onPlatform = m.platformPosts().filter((p) => p.text.startsWith('Held by a dead worker '));
    expect(onPlatform).toHaveLength(45);
    expect(new Set(onPlatform.map((p) => p.text)).size).toBe(45);
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema/index.ts';
import { createPost, type Member, type PostWorld, postRow, startPostWorld } from '../posts/world.ts';

/**
 * A worker killed mid-publish leaves its posts in `publishing` until another worker's sweep takes
 * the lapsed claims over. They are claimed, so `postkit_posts_due` (and the "post late" alert on
 * its oldest age) reads 0 all that time: the operator needs a gauge of their own to see them, and
 * to see when nobody is recovering them.
 */
let w: PostWorld;
let m: Member;
const scrape = async () => (await fetch(`${w.t.service.metricsUrl}/metrics`)).text();
const gauge = (text: string, name: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
};

beforeAll(async () => {
  w = await startPostWorld({ env: { METRICS_PORT: '0' } });
  m = await w.member();
});
afterAll(async () => {
  await w?.close();
});

describe('postkit_publish_claims_lapsed', () => {
  it('counts posts whose publisher died until a worker takes them over', async () => {
    const post = await createPost(w.t, m, {
      text: 'Its worker was killed mid-publish',
      channelId: m.channelId,
      runAt: w.clock.now() + 60_000,
    });
    const lease = w.t.config.PUBLISH_LEASE_MS;
    const claim = (claimedAt: number) =>
      w.t.service.deps.db
        .update(posts)
        .set({ status: 'publishing', claimedBy: 'dead:process', claimedAt })
        .where(eq(posts.id, post.id));

    // A live claim (renewed within the lease) is not lapsed.
    await claim(w.clock.now());
    expect(gauge(await scrape(), 'postkit_publish_claims_lapsed')).toBe(0);

    w.clock.advance(90_000);
    await claim(w.clock.now() - lease - 1_000);
    const stuck = await scrape();
    expect(gauge(stuck, 'postkit_publish_claims_lapsed')).toBe(1);
    // What the new gauge is for: the due backlog does not show this post.
    expect(gauge(stuck, 'postkit_posts_due')).toBe(0);

    await w.t.service.runner!.runOnce();
    expect((await postRow(w.t, post.id))?.status).toBe('published');
    expect(gauge(await scrape(), 'postkit_publish_claims_lapsed')).toBe(0);
  });
});

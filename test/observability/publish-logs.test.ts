import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema/index.ts';
import { publishSweep } from '../../src/features/posts/publishing/publish.sweep.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { createPost, type Member, type PostWorld, postRow, startPostWorld } from '../posts/world.ts';

/**
 * What a worker's log says at the default level about the publishes it settles: an operator
 * reading it should see why a post failed, and that a dead process's posts were taken over,
 * without opening the database.
 */
let w: PostWorld;
let m: Member;

beforeAll(async () => {
  w = await startPostWorld();
  m = await w.member();
});
afterAll(async () => {
  await w?.close();
});

/** Runs the publish sweep once with a logger whose JSON lines are kept. */
async function sweepLogged(): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const deps = { ...w.t.service.deps, log: createLogger('info', stream) };
  await publishSweep.run(deps, new AbortController().signal);
  await new Promise((r) => setImmediate(r));
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('publish sweep logs', () => {
  it('a final failure is a warning with its code and reason', async () => {
    const post = await createPost(w.t, m, {
      text: 'The platform refuses this one',
      channelId: m.channelId,
      runAt: w.clock.now() + 60_000,
    });
    w.clock.advance(61_000);
    w.sandbox.platformA.faults.failNext('createPost', 422);
    const lines = await sweepLogged();
    expect((await postRow(w.t, post.id))?.status).toBe('failed');
    const line = lines.find((l) => l.postId === post.id);
    expect(line).toMatchObject({ level: 40, msg: 'publish failed', code: 'publish_failed' });
    expect(String(line?.reason)).toMatch(/422/);
  });

  it('taking over a dead process’s claims is a warning naming the posts', async () => {
    const post = await createPost(w.t, m, {
      text: 'Its worker was killed mid-publish',
      channelId: m.channelId,
      runAt: w.clock.now() + 60_000,
    });
    w.clock.advance(90_000);
    await w.t.service.deps.db
      .update(posts)
      .set({
        status: 'publishing',
        claimedBy: 'dead:process',
        claimedAt: w.clock.now() - w.t.config.PUBLISH_LEASE_MS - 1_000,
      })
      .where(eq(posts.id, post.id));
    const lines = await sweepLogged();
    expect((await postRow(w.t, post.id))?.status).toBe('published');
    expect(lines.find((l) => l.msg === 'took over publishes whose claim lapsed')).toMatchObject({
      level: 40,
      posts: 1,
      postIds: [post.id],
    });
  });
});

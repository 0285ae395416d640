import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema/index.ts';
import { transitionEach } from '../../src/features/posts/core/transitions.ts';
import { type Member, type PostWorld, startPostWorld } from './world.ts';

/**
 * A batch of outcomes never reads the due index, whatever the statistics say
 * (transitions.ts, transitionAllowedByKey). Statistics taken before a burst, when no post was
 * publishing, make the due index's publishing range look empty; a guard the planner could
 * serve from that index then scanned the whole range, dead entries included, for every batch.
 * Counted with PostgreSQL's per-transaction scan counters, on whichever driver this run uses.
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

const db = () => w.t.service.deps.db;

describe('batched outcome statements', () => {
  it('do not scan the due index when the statistics predate the burst', async () => {
    // Enough posts that reading them all costs more than a few index probes.
    const runAt = w.clock.now() + 3_600_000;
    const ids = Array.from({ length: 3_000 }, (_, i) => `post_plan_${i}`);
    for (let start = 0; start < ids.length; start += 500) {
      await db()
        .insert(posts)
        .values(
          ids.slice(start, start + 500).map((id) => ({
            id,
            accountId: m.accountId,
            channelId: m.channelId,
            platform: 'platformA',
            status: 'scheduled',
            text: `A scheduled post of a usual length, ${id}.`.repeat(4),
            scheduledFor: runAt,
            createdAt: 0,
            updatedAt: 0,
          })),
        );
    }
    // Statistics taken while every post is scheduled, as at the start of a burst.
    await db().execute(sql`analyze posts`);
    const scans = await db()
      .transaction(async (tx) => {
        await tx
          .update(posts)
          .set({ status: 'publishing', claimedBy: sql`'plan:' || ${posts.id}` })
          .where(inArray(posts.id, ids));
        const count = async () => {
          const result = (await tx.execute(
            sql`select pg_stat_get_xact_numscans('posts_due_idx'::regclass)::int as due, pg_stat_get_xact_numscans('posts_pkey'::regclass)::int as pkey`,
          )) as unknown;
          // postgres.js answers with the rows, PGlite with { rows }.
          const rows = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
          return rows[0] as { due: number; pkey: number };
        };
        const before = await count();
        const moved = await transitionEach(
          tx,
          'succeed',
          ids.slice(0, 4).map((id, i) => ({
            id,
            claimedBy: `plan:${id}`,
            changes: { publishedAt: 1, platformPostId: `urn:plan:${i}`, platformUrl: null, updatedAt: 1 },
          })),
        );
        expect(moved.map((row) => row.status)).toEqual(['published', 'published', 'published', 'published']);
        const after = await count();
        throw Object.assign(new Error('roll back'), { scans: { before, after } });
      })
      .catch(
        (err: {
          scans?: { before: { due: number; pkey: number }; after: { due: number; pkey: number } };
        }) => {
          if (!err.scans) throw err;
          return err.scans;
        },
      );
    expect(scans.after.due - scans.before.due).toBe(0);
  });
});

import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTextsOf } from '../../src/db/json-rows.ts';
import { reusableStatement } from '../../src/db/reusable-statement.ts';
import { posts } from '../../src/db/schema/index.ts';
import { createPost, type Member, type PostWorld, startPostWorld } from '../posts/world.ts';

/**
 * A statement built once and run on the database or in any transaction (reusable-statement.ts),
 * on whichever driver this run uses (PGlite, or PostgreSQL when DATABASE_URL is set): its rows
 * come back exactly as the builder's own execute maps them, and in a transaction it runs on
 * that transaction's connection.
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

let builds = 0;
const renameAndReturn = reusableStatement<{ text: string; id: string }, (typeof posts.$inferSelect)[]>(
  'test_rename_post',
  (handle) => {
    builds++;
    return handle
      .update(posts)
      .set({ text: sql`${sql.placeholder('text')}` })
      .where(eq(posts.id, sql.placeholder('id')))
      .returning();
  },
);

const idsOf = reusableStatement<{ ids: string }, { id: string; scheduledFor: number | null }[]>(
  'test_ids_of',
  (handle) =>
    handle
      .select({ id: posts.id, scheduledFor: posts.scheduledFor })
      .from(posts)
      .where(inTextsOf(posts.id, sql.placeholder('ids'))),
);

describe('reusableStatement', () => {
  it('returns rows mapped exactly as the builder maps them, building the text once', async () => {
    const a = await createPost(w.t, m, {
      text: 'First',
      channelId: m.channelId,
      runAt: w.clock.now() + 60_000,
    });
    const b = await createPost(w.t, m, { text: 'Second', channelId: m.channelId });
    const [renamed] = await renameAndReturn(db(), { text: 'First, renamed', id: a.id });
    const [read] = await db().select().from(posts).where(eq(posts.id, a.id));
    expect(renamed).toEqual(read);
    expect(typeof renamed!.scheduledFor).toBe('number');
    expect(renamed!.text).toBe('First, renamed');
    // Other values, same statement: the builder is not asked again.
    const [second] = await renameAndReturn(db(), { text: 'Second, renamed', id: b.id });
    expect(second!.id).toBe(b.id);
    expect(second!.scheduledFor).toBeNull();
    expect(builds).toBe(1);
    const both = await idsOf(db(), { ids: JSON.stringify([a.id, b.id]) });
    expect(both.sort((x, y) => x.id.localeCompare(y.id))).toEqual(
      [
        { id: a.id, scheduledFor: read!.scheduledFor },
        { id: b.id, scheduledFor: null },
      ].sort((x, y) => x.id.localeCompare(y.id)),
    );
  });

  it('runs inside the transaction it is given: a rollback undoes it', async () => {
    const post = await createPost(w.t, m, { text: 'Kept', channelId: m.channelId });
    const rollback = new Error('roll back');
    await expect(
      db().transaction(async (tx) => {
        const [inside] = await renameAndReturn(tx, { text: 'Rolled back', id: post.id });
        expect(inside!.text).toBe('Rolled back');
        // The same transaction sees its own write.
        const [seen] = await tx.select({ text: posts.text }).from(posts).where(eq(posts.id, post.id));
        expect(seen!.text).toBe('Rolled back');
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    const [after] = await db().select({ text: posts.text }).from(posts).where(eq(posts.id, post.id));
    expect(after!.text).toBe('Kept');
  });
});

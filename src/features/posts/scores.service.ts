import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Call } from '../../context.ts';
import { media, postScores } from '../../db/schema/index.ts';
import type { Platform } from '../../domain/enums.ts';
import { newId } from '../../lib/ids.ts';
import type { ScoreResult } from '../../scoring/index.ts';
import { recordEvent } from '../events/events.service.ts';
import { scoreText } from '../intelligence/intelligence.service.ts';
import { loadPostRow, toPost } from './core/post-row.ts';
import { mediaKindOf } from './core/post-rules.ts';
import type { PostScore } from './posts.schemas.ts';

type ScoreRow = typeof postScores.$inferSelect;

const toPostScore = (row: ScoreRow): PostScore => ({
  id: row.id,
  postId: row.postId,
  score: row.score,
  verdict: row.verdict,
  payload: row.payload,
  createdAt: row.createdAt,
});

/**
 * Scores the post's stored text (with the media format its attachments amount to) through the
 * same verb as POST /v1/score -- cached, metered, model or heuristic -- then keeps the result
 * against the post and records `post.scored` in the same transaction.
 */
export async function scoreStoredPost({
  ctx,
  input,
}: Call<{ id: string }>): Promise<{ score: PostScore; result: ScoreResult }> {
  const { db, clock } = ctx.deps;
  const row = await loadPostRow(db, ctx.caller.accountId, input.id);
  const types = row.mediaIds.length
    ? (
        await db
          .select({ contentType: media.contentType })
          .from(media)
          .where(and(eq(media.accountId, row.accountId), inArray(media.id, row.mediaIds)))
      ).map((m) => m.contentType)
    : [];
  const result = await scoreText({
    ctx,
    input: { post: row.text, platform: row.platform as Platform, media: mediaKindOf(types) },
  });
  return db.transaction(async (tx) => {
    // Re-read inside the transaction: a post deleted while it was being scored is a 404.
    const current = await loadPostRow(tx, ctx.caller.accountId, input.id);
    const now = clock.now();
    const [stored] = await tx
      .insert(postScores)
      .values({
        id: newId('postScore'),
        postId: current.id,
        accountId: current.accountId,
        score: Math.round(result.overall),
        verdict: result.verdict,
        payload: result as unknown as Record<string, unknown>,
        createdAt: now,
      })
      .returning();
    const score = toPostScore(stored!);
    await recordEvent(tx, {
      accountId: current.accountId,
      type: 'post.scored',
      data: { post: toPost(current), score },
      now,
    });
    return { score, result };
  });
}

/** The post's recorded scores, newest first. */
export async function listPostScores({ ctx, input }: Call<{ id: string }>): Promise<PostScore[]> {
  const row = await loadPostRow(ctx.deps.db, ctx.caller.accountId, input.id);
  const rows = await ctx.deps.db
    .select()
    .from(postScores)
    .where(eq(postScores.postId, row.id))
    .orderBy(desc(postScores.createdAt), desc(postScores.id));
  return rows.map(toPostScore);
}

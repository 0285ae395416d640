import { and, asc, eq } from 'drizzle-orm';
import type { Call } from '../../context.ts';
import { postComments, posts } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { requireOwned } from '../tenancy.ts';
import type { Comment } from './comments.schemas.ts';

const toComment = (row: typeof postComments.$inferSelect): Comment => ({
  id: row.id,
  memberId: row.memberId,
  text: row.text,
  createdAt: row.createdAt,
});

/** A post's comments, oldest first (they read as a conversation); another account's post is 404. */
export async function listComments({ ctx, input }: Call<{ postId: string }>): Promise<Comment[]> {
  await requireOwned(ctx, posts, input.postId, 'Post');
  const rows = await ctx.deps.db
    .select()
    .from(postComments)
    .where(and(eq(postComments.postId, input.postId), eq(postComments.accountId, ctx.caller.accountId)))
    .orderBy(asc(postComments.createdAt), asc(postComments.id));
  return rows.map(toComment);
}

/** Adds the calling member's comment to a post of the account, in any state. */
export async function addComment({ ctx, input }: Call<{ postId: string; text: string }>): Promise<Comment> {
  await requireOwned(ctx, posts, input.postId, 'Post');
  const [row] = await ctx.deps.db
    .insert(postComments)
    .values({
      id: newId('comment'),
      accountId: ctx.caller.accountId,
      postId: input.postId,
      memberId: ctx.caller.memberId,
      text: input.text,
      createdAt: ctx.deps.clock.now(),
    })
    .returning();
  return toComment(row!);
}

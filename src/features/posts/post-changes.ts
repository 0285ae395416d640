import { eq } from 'drizzle-orm';
import type { Call } from '../../context.ts';
import { posts } from '../../db/schema/index.ts';
import type { Conflict } from '../../domain/errors.ts';
import { announce, reviewAfterEdit } from '../approvals/approvals.service.ts';
import type { Post } from './core/post.schemas.ts';
import { loadPostRow, type PostRow, toPost } from './core/post-row.ts';
import { checkOne } from './core/post-rules.ts';
import { allows, transitionPost } from './core/transitions.ts';
import type { UpdatePostRequest } from './posts.schemas.ts';

/**
 * Applies `changes` to one post through `transition` ('edit' for drafts, 'revise' for scheduled
 * posts, whose request carries only the parts: a ReviseScheduledRequest), after the checks a new
 * post gets. The write is conditional on the transition still
 * being allowed, in the same statement, so it cannot race a claim; `refusal` words why a post in
 * another state cannot change, read again after a lost race so it names the state that won.
 */
export async function changePost({
  ctx,
  input,
}: Call<{
  id: string;
  transition: 'edit' | 'revise';
  changes: UpdatePostRequest;
  refusal: (row: PostRow) => Conflict;
}>): Promise<Post> {
  const { changes, transition, refusal } = input;
  const row = await loadPostRow(ctx.deps.db, ctx.caller.accountId, input.id);
  if (!allows(row.status, transition)) throw refusal(row);
  const channelId = changes.channelId === undefined ? row.channelId : changes.channelId;
  const checked = await checkOne(ctx, {
    text: changes.text ?? row.text,
    channelId,
    brandId: changes.brandId === undefined ? row.brandId : changes.brandId,
    platform: platformAfter(row, changes, channelId),
    mediaIds: changes.mediaIds ?? row.mediaIds,
    thread: changes.thread ?? row.thread,
    firstComment: changes.firstComment === undefined ? row.firstComment : changes.firstComment,
  });
  const parts = {
    text: checked.text,
    channelId: checked.channelId,
    platform: checked.platform,
    brandId: checked.brandId,
    mediaIds: checked.mediaIds,
    thread: checked.thread,
    firstComment: checked.firstComment,
  };
  // An approved post whose parts change goes back for review, with its event, in the same write.
  const review = reviewAfterEdit(ctx, row, parts);
  const now = ctx.deps.clock.now();
  const updated = await ctx.deps.db.transaction(async (tx) => {
    const [written] = await transitionPost(tx, transition, eq(posts.id, row.id), {
      ...parts,
      ...review,
      updatedAt: now,
    });
    if (written && review.approvalState) await announce(tx, written, 'post.approval_requested', now);
    return written;
  });
  if (!updated) throw refusal(await loadPostRow(ctx.deps.db, ctx.caller.accountId, input.id));
  return toPost(updated);
}

/**
 * The platform a changed draft is checked and stored on: the one asked for; else, when the
 * channel changes to another, the new channel's (undefined: checkDraft reads it off the channel),
 * so moving a draft from a platformA channel to a platformB one moves the post with it;
 * otherwise the post's own.
 */
function platformAfter(
  row: PostRow,
  changes: UpdatePostRequest,
  channelId: string | null,
): string | undefined {
  if (changes.platform !== undefined) return changes.platform;
  if (channelId && channelId !== row.channelId) return undefined;
  return row.platform;
}

import type { Ctx } from '../../context.ts';
import { posts } from '../../db/schema/index.ts';
import { SweepName } from '../../wake/sweep-names.ts';
import type { Post } from '../posts/core/post.schemas.ts';
import { newPostRow, toPost } from '../posts/core/post-row.ts';
import type { CheckedDraft } from '../posts/core/post-rules.ts';
import { lockQueue, nextFreeSlot } from './queue-assign.ts';
import { type SlotTaken, slotOf } from './slot-times.ts';

/**
 * POST /v1/posts with `queue: true`: the post is scheduled at the channel's next free slot.
 * The queue row's lock is held from choosing the slot to inserting the post, so a concurrent
 * request (in this process or another) waits and then sees this post in the slot.
 */
export async function createQueuedPost(
  ctx: Ctx,
  draft: CheckedDraft,
  now: number,
): Promise<{ post: Post; slot: SlotTaken }> {
  const { row, timezone } = await ctx.deps.db.transaction(async (tx) => {
    const queue = await lockQueue(tx, draft.channelId!);
    const at = await nextFreeSlot(tx, queue, now);
    const [inserted] = await tx
      .insert(posts)
      .values(newPostRow(ctx.caller.accountId, draft, at, now))
      .returning();
    return { row: inserted!, timezone: queue.timezone };
  });
  ctx.deps.wake(SweepName.publish, row.scheduledFor!);
  return { post: toPost(row), slot: slotOf(row.scheduledFor!, timezone) };
}

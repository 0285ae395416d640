import type { Ctx } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { posts } from '../../db/schema/index.ts';
import { requireApprovalForNew } from '../approvals/approval-gate.ts';
import { lockQueue, nextFreeSlot, type QueueRow } from '../queues/queue-assign.ts';
import { newPostRow, type PostRow } from './core/post-row.ts';
import type { CheckedDraft } from './core/post-rules.ts';

/** One checked post to write: a draft, scheduled at `runAt`, or at its channel's next free slot (`queue`). */
export interface PostToWrite {
  draft: CheckedDraft;
  runAt?: number;
  queue?: boolean;
}

/**
 * Inserts checked posts inside the caller's transaction (a batch or a post group is all or
 * nothing), in entry order. Queued posts take their channels' next free slots in entry order;
 * the queue locks are taken in channel id order, so two writers over the same channels cannot
 * deadlock. `fields` go on every row (a post group's id). A batch that schedules anything
 * passes the approval gate first (approvals/approval-gate.ts): a held editor's is refused whole.
 */
export async function writePosts(
  ctx: Ctx,
  tx: DbOrTx,
  entries: PostToWrite[],
  now: number,
  fields: { groupId?: string } = {},
): Promise<PostRow[]> {
  if (entries.some((entry) => entry.queue || entry.runAt !== undefined)) await requireApprovalForNew(ctx, tx);
  const accountId = ctx.caller.accountId;
  const rowOf = (entry: PostToWrite, at: number | undefined) => ({
    ...newPostRow(accountId, entry.draft, at, now),
    ...fields,
  });
  const written: PostRow[] = new Array(entries.length);
  const direct = entries.flatMap((entry, i) => (entry.queue ? [] : [i]));
  if (direct.length > 0) {
    const values = direct.map((i) => rowOf(entries[i]!, entries[i]!.runAt));
    const done = await tx.insert(posts).values(values).returning();
    const byId = new Map(done.map((r) => [r.id, r]));
    direct.forEach((i, k) => {
      written[i] = byId.get(values[k]!.id)!;
    });
  }
  const queued = [...new Set(entries.flatMap((e) => (e.queue ? [e.draft.channelId!] : [])))].sort();
  const queues = new Map<string, QueueRow>();
  for (const channelId of queued) queues.set(channelId, await lockQueue(tx, channelId));
  for (const [i, entry] of entries.entries()) {
    if (!entry.queue) continue;
    const channelId = entry.draft.channelId!;
    const queue = queues.get(channelId)!;
    const at = await nextFreeSlot(tx, queue, now);
    // The hint moved past this slot: the channel's next entry starts after it.
    queues.set(channelId, { ...queue, filledUntil: at });
    const [row] = await tx.insert(posts).values(rowOf(entry, at)).returning();
    written[i] = row!;
  }
  return written;
}

import { and, eq } from 'drizzle-orm';
import type { Call, Ctx } from '../../context.ts';
import { posts } from '../../db/schema/index.ts';
import { Conflict, type ErrorDetail } from '../../domain/errors.ts';
import { SweepName } from '../../wake/sweep-names.ts';
import { passApprovalGate } from '../approvals/approval-gate.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { channelsWithSlots, lockQueue, nextFreeSlot } from '../queues/queue-assign.ts';
import { planProblems } from '../series/plan-rules.ts';
import type { Post } from './core/post.schemas.ts';
import { loadPostRow, type PostRow, toPost } from './core/post-row.ts';
import {
  type CheckedDraft,
  checkDraft,
  checkOne,
  draftOfRow,
  invalidPost,
  type Lookup,
  loadLookup,
  type PostDraft,
  scheduleProblems,
} from './core/post-rules.ts';
import { allows, transitionPost } from './core/transitions.ts';
import { writePosts } from './post-writer.ts';
import type { BulkScheduleItem } from './posts.schemas.ts';

const notSchedulable = (row: PostRow) =>
  new Conflict(
    'not_schedulable',
    `Only drafts and scheduled posts can be scheduled; this post is ${row.status}.`,
    { about: { post: toPost(row) } },
  );

/**
 * draft -> scheduled, or scheduled -> scheduled with a new time. The post row is its own
 * pending job, so re-scheduling replaces the job rather than adding one; a pending retry is
 * dropped with it. The draft is re-checked (its media may have been deleted since).
 */
export async function schedulePost({
  ctx,
  input,
}: Call<{ id: string; runAt?: number; queue?: boolean }>): Promise<Post> {
  const { db, clock } = ctx.deps;
  const found = await loadPostRow(db, ctx.caller.accountId, input.id);
  if (!allows(found.status, 'schedule')) throw notSchedulable(found);
  const row = await passApprovalGate(ctx, found);
  const now = clock.now();
  if (input.queue === true) return queueExisting(ctx, row, input.runAt, now);
  if (input.runAt === undefined)
    throw invalidPost([{ path: 'runAt', message: 'Give a runAt in the future, or queue: true' }]);
  const runAt = input.runAt;
  await checkOne(ctx, draftOfRow(row), scheduleProblems(runAt, row.channelId, now));
  const updated = await db.transaction(async (tx) => {
    const [moved] = await transitionPost(tx, 'schedule', eq(posts.id, row.id), scheduledAt(runAt, now));
    if (moved) await recordAudit(tx, ctx.caller, { action: 'post.scheduled', target: row.id, at: now });
    return moved;
  });
  if (!updated) throw notSchedulable(await loadPostRow(db, ctx.caller.accountId, input.id));
  ctx.deps.wake(SweepName.publish, runAt);
  return toPost(updated);
}

const scheduledAt = (runAt: number, now: number) => ({
  scheduledFor: runAt,
  retryAt: null,
  publishAttempts: 0,
  error: null,
  updatedAt: now,
});

/**
 * `queue: true`: the post moves to its channel's next free queue slot, chosen and written under
 * the queue row's lock (as a post created with `queue: true`), so two posts queued at once never
 * share a slot. A post already scheduled counts in its own slot until it moves, so it moves to a
 * later free one.
 */
async function queueExisting(ctx: Ctx, row: PostRow, runAt: number | undefined, now: number): Promise<Post> {
  const extra: ErrorDetail[] = [];
  if (runAt !== undefined)
    extra.push({ path: 'runAt', message: 'Give either runAt or queue: true, not both' });
  if (!row.channelId)
    extra.push({ path: 'channelId', message: 'A queued post needs a channel to publish to' });
  await checkOne(ctx, draftOfRow(row), extra);
  const channelId = row.channelId!;
  const updated = await ctx.deps.db
    .transaction(async (tx) => {
      const queue = await lockQueue(tx, channelId);
      const at = await nextFreeSlot(tx, queue, now);
      const [moved] = await transitionPost(tx, 'schedule', eq(posts.id, row.id), scheduledAt(at, now));
      if (moved) await recordAudit(tx, ctx.caller, { action: 'post.scheduled', target: row.id, at: now });
      return moved;
    })
    .catch((err: unknown) => {
      // As every 409 of this route, queue_empty carries the post (unchanged).
      if (err instanceof Conflict && err.code === 'queue_empty')
        throw new Conflict(err.code, err.message, { about: { post: toPost(row) } });
      throw err;
    });
  if (!updated) throw notSchedulable(await loadPostRow(ctx.deps.db, ctx.caller.accountId, row.id));
  ctx.deps.wake(SweepName.publish, updated.scheduledFor!);
  return toPost(updated);
}

/**
 * Cancels a post that has not reached the platform: draft, scheduled, or publishing before
 * its create was sent (the publisher then finds its claim gone and stops before sending).
 * Canceling a canceled post is a no-op. Published and failed posts are terminal (409
 * post_terminal); a post whose create is already on its way, or part of whose thread is
 * already published, cannot be called back (409 post_publishing) and ends published or failed.
 */
export async function cancelPost({ ctx, input }: Call<{ id: string }>): Promise<Post> {
  const { db, clock } = ctx.deps;
  const now = clock.now();
  const canceled = await db.transaction(async (tx) => {
    const [moved] = await transitionPost(
      tx,
      'cancel',
      and(eq(posts.id, input.id), eq(posts.accountId, ctx.caller.accountId)),
      { retryAt: null, claimedBy: null, updatedAt: now },
    );
    if (moved) await recordAudit(tx, ctx.caller, { action: 'post.canceled', target: moved.id, at: now });
    return moved;
  });
  if (canceled) return toPost(canceled);
  const row = await loadPostRow(db, ctx.caller.accountId, input.id);
  if (row.status === 'canceled') return toPost(row);
  // A thread waiting to retry may have its first parts on the platform already: like a create
  // on its way, that cannot be called back, so the post ends published or failed.
  if (row.status === 'publishing' || (row.status === 'scheduled' && row.platformPostId !== null)) {
    throw new Conflict(
      'post_publishing',
      row.status === 'publishing'
        ? 'The post is already being sent to the platform and can no longer be canceled; it will end published or failed.'
        : 'The first parts of this post are already on the platform and the rest is waiting to retry; it can no longer be canceled and will end published or failed.',
      { about: { post: toPost(row) } },
    );
  }
  throw new Conflict('post_terminal', `The post is ${row.status}, which is final; it cannot be canceled.`, {
    about: { post: toPost(row) },
  });
}

/**
 * Checks a batch without writing: each item's draft (platform resolved) and its problems, with
 * paths under `prefixOf(i)` (`items[2].runAt`). An item may take `queue: true` instead of
 * `runAt` (its channel's next free slot). Shared by bulkSchedule and the dry runs.
 */
export async function checkBulkItems(
  ctx: Ctx,
  items: BulkScheduleItem[],
  now: number,
  prefixOf: (i: number) => string = (i) => `items[${i}].`,
): Promise<{ drafts: CheckedDraft[]; problems: ErrorDetail[][]; lookup: Lookup }> {
  const drafts: PostDraft[] = items.map((item) => ({
    text: item.text,
    channelId: item.channelId ?? null,
    brandId: item.brandId ?? null,
    platform: item.platform,
    mediaIds: item.mediaIds ?? [],
    thread: item.thread ?? [],
    firstComment: item.firstComment ?? null,
  }));
  const lookup = await loadLookup(ctx, drafts);
  const queued = new Set(items.flatMap((item) => (item.queue && item.channelId ? [item.channelId] : [])));
  const withSlots = await channelsWithSlots(ctx.deps.db, [...queued]);
  const problems: ErrorDetail[][] = [];
  const checkedDrafts = drafts.map((draft, i) => {
    const prefix = prefixOf(i);
    const item = items[i]!;
    const checked = checkDraft(draft, lookup, prefix);
    const found = [...checked.problems, ...planProblems(item, draft.channelId, now, prefix)];
    if (item.runAt !== undefined) found.push(...scheduleProblems(item.runAt, draft.channelId, now, prefix));
    else if (!item.queue)
      found.push({
        path: `${prefix}runAt`,
        message: 'Give runAt, or queue: true to take the next free queue slot',
      });
    else if (draft.channelId && lookup.channels.has(draft.channelId) && !withSlots.has(draft.channelId))
      found.push({
        path: `${prefix}queue`,
        message: 'This channel has no queue slots; set some first, or give runAt',
      });
    problems.push(found);
    return checked.draft;
  });
  return { drafts: checkedDrafts, problems, lookup };
}

/**
 * Schedules many posts at once. Every item is checked on its own and every problem is
 * reported with its item's path (`items[2].runAt`); any problem fails the whole batch and
 * nothing is created. An item may take `queue: true` instead of `runAt` (its channel's next
 * free slot, in item order, as POST /v1/posts does). Everything goes in one transaction
 * (writePosts), so the batch is all or nothing.
 */
export async function bulkSchedule({ ctx, input }: Call<{ items: BulkScheduleItem[] }>): Promise<Post[]> {
  const now = ctx.deps.clock.now();
  const { drafts: checkedDrafts, problems } = await checkBulkItems(ctx, input.items, now);
  if (problems.some((p) => p.length > 0)) throw invalidPost(problems.flat());
  const entries = input.items.map((item, i) => ({
    draft: checkedDrafts[i]!,
    runAt: item.runAt,
    queue: item.runAt === undefined,
  }));
  const rows = await ctx.deps.db.transaction((tx) => writePosts(ctx, tx, entries, now));
  ctx.deps.wake(SweepName.publish, Math.min(...rows.map((r) => r.scheduledFor!)));
  return rows.map(toPost);
}

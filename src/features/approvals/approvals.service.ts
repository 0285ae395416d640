import { eq } from 'drizzle-orm';
import type { Call, Ctx } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { posts } from '../../db/schema/index.ts';
import { Conflict } from '../../domain/errors.ts';
import { SweepName } from '../../wake/sweep-names.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { recordEvent } from '../events/events.service.ts';
import type { Post } from '../posts/core/post.schemas.ts';
import { loadPostRow, type PostRow, pendingColumns, toPost } from '../posts/core/post-row.ts';
import { checkOne, draftOfRow, scheduleProblems } from '../posts/core/post-rules.ts';
import { allows, type PostChanges, transitionPost } from '../posts/core/transitions.ts';
import type { ApprovePostRequest, RequestChangesRequest, SubmitPostRequest } from './approval.schemas.ts';

/**
 * A post's review: a writer submits it (with the time they want), an owner or admin approves it
 * (which schedules it at that time) or asks for changes with a note. The review lives beside
 * the post's status, which keeps the contract's values: a post under review is a draft (or a
 * scheduled post that does not fall due until approved, core/transitions.ts).
 */

/** The transition that writes a post's review without moving it: a draft's edit, a scheduled post's revise. */
const stayEvent = (row: PostRow) => (row.status === 'draft' ? 'edit' : 'revise');

const about = (row: PostRow) => ({ about: { post: toPost(row) } });

function notReviewable(row: PostRow): Conflict {
  return new Conflict(
    'not_reviewable',
    `Only drafts and scheduled posts not yet on their way can be reviewed; this post is ${row.status}.`,
    about(row),
  );
}

/** Writes `changes` on the post while it is still a draft or scheduled with nothing sent; 409 otherwise. */
async function writeReview(ctx: Ctx, tx: DbOrTx, row: PostRow, changes: PostChanges): Promise<PostRow> {
  const [updated] = await transitionPost(tx, stayEvent(row), eq(posts.id, row.id), changes);
  if (!updated) throw notReviewable(await loadPostRow(tx, ctx.caller.accountId, row.id));
  return updated;
}

/**
 * POST /v1/posts/{id}/submit: the post waits for an approver. `runAt` is the time wanted; it is
 * checked now (in the future, a channel set), as scheduling would, so an approval can keep it.
 * Submitting a post already pending refreshes the request (the time wanted, who asked).
 */
export async function submitPost({ ctx, input }: Call<{ id: string } & SubmitPostRequest>): Promise<Post> {
  const row = await loadPostRow(ctx.deps.db, ctx.caller.accountId, input.id);
  if (!allows(row.status, stayEvent(row))) throw notReviewable(row);
  if (row.approvalState === 'approved')
    throw new Conflict(
      'already_approved',
      'This post is already approved: schedule or publish it. Edit it first to send it back for review.',
      about(row),
    );
  const now = ctx.deps.clock.now();
  const runAt = input.runAt ?? null;
  await checkOne(ctx, draftOfRow(row), runAt === null ? [] : scheduleProblems(runAt, row.channelId, now));
  const wasPending = row.approvalState === 'pending';
  const updated = await ctx.deps.db.transaction(async (tx) => {
    const written = await writeReview(ctx, tx, row, {
      ...pendingColumns(ctx.caller.memberId, now, runAt),
      updatedAt: now,
    });
    if (!wasPending) await announce(tx, written, 'post.approval_requested', now);
    return written;
  });
  return toPost(updated);
}

/**
 * POST /v1/posts/{id}/approve (owner or admin): approved, and scheduled at the time the writer
 * asked for when it is still ahead. A post already approved is answered as it is.
 */
export async function approvePost({ ctx, input }: Call<{ id: string } & ApprovePostRequest>): Promise<Post> {
  const row = await loadPostRow(ctx.deps.db, ctx.caller.accountId, input.id);
  if (!allows(row.status, stayEvent(row))) throw notReviewable(row);
  if (row.approvalState === 'approved') return toPost(row);
  return toPost(await decide(ctx, row, { state: 'approved', note: input.note ?? null, schedule: true }));
}

/** POST /v1/posts/{id}/request-changes (owner or admin): sent back to the writer with a note. */
export async function requestChanges({
  ctx,
  input,
}: Call<{ id: string } & RequestChangesRequest>): Promise<Post> {
  const row = await loadPostRow(ctx.deps.db, ctx.caller.accountId, input.id);
  if (!allows(row.status, stayEvent(row))) throw notReviewable(row);
  if (row.approvalState === null)
    throw new Conflict(
      'not_in_review',
      'This post was not submitted for review; leave a comment on it instead, or ask its writer to submit it.',
      about(row),
    );
  return toPost(await decide(ctx, row, { state: 'changes_requested', note: input.note, schedule: false }));
}

/**
 * An approver's decision, with its webhook event, in one transaction. With `schedule`, an
 * approval schedules the post at the time asked for when that time is still ahead (checked as
 * POST /schedule checks it; a time already past leaves the post as it is, approved, to be
 * scheduled by hand). Shared with the gate: an owner's schedule of a post under review approves it.
 */
export async function decide(
  ctx: Ctx,
  row: PostRow,
  decision: { state: 'approved' | 'changes_requested'; note: string | null; schedule: boolean },
): Promise<PostRow> {
  const now = ctx.deps.clock.now();
  const runAt = row.approvalRunAt;
  const scheduleAt =
    decision.schedule && decision.state === 'approved' && runAt !== null && runAt > now ? runAt : null;
  if (scheduleAt !== null)
    await checkOne(ctx, draftOfRow(row), scheduleProblems(scheduleAt, row.channelId, now));
  const decided = {
    approvalState: decision.state,
    approvalDecidedBy: ctx.caller.memberId,
    approvalDecidedAt: now,
    approvalNote: decision.note,
    updatedAt: now,
  };
  const updated = await ctx.deps.db.transaction(async (tx) => {
    let written = await writeReview(ctx, tx, row, decided);
    if (scheduleAt !== null) {
      const [scheduled] = await transitionPost(tx, 'schedule', eq(posts.id, row.id), {
        scheduledFor: scheduleAt,
        retryAt: null,
        publishAttempts: 0,
        error: null,
      });
      written = scheduled ?? written;
    }
    const type = decision.state === 'approved' ? 'post.approved' : 'post.changes_requested';
    await announce(tx, written, type, now);
    await recordAudit(tx, ctx.caller, { action: type, target: row.id, at: now });
    return written;
  });
  if (updated.status === 'scheduled' && updated.scheduledFor !== null)
    ctx.deps.wake(SweepName.publish, updated.scheduledFor);
  return updated;
}

/**
 * What an edit writes on a post's review: an approved post whose published parts (text, thread,
 * first comment, media, channel) change goes back to pending, asked for by the member who
 * edited it, and keeps the time asked for. Nothing otherwise.
 */
export function reviewAfterEdit(ctx: Ctx, row: PostRow, after: PostChanges): PostChanges {
  if (row.approvalState !== 'approved') return {};
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const changed =
    !same(after.text, row.text) ||
    !same(after.thread, row.thread) ||
    !same(after.firstComment, row.firstComment) ||
    !same(after.mediaIds, row.mediaIds) ||
    !same(after.channelId, row.channelId);
  if (!changed) return {};
  return pendingColumns(ctx.caller.memberId, ctx.deps.clock.now(), row.approvalRunAt);
}

/** The review's webhook event, in the transaction that changed it. */
export async function announce(
  tx: DbOrTx,
  row: PostRow,
  type: 'post.approval_requested' | 'post.approved' | 'post.changes_requested',
  now: number,
): Promise<void> {
  await recordEvent(tx, { accountId: row.accountId, type, data: { post: toPost(row) }, now });
}

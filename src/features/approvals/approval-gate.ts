import type { Ctx } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { Conflict } from '../../domain/errors.ts';
import { roleReaches } from '../../domain/roles.ts';
import { approvalsSetting } from '../account/settings.service.ts';
import { inReview, type PostRow, toPost } from '../posts/core/post-row.ts';
import { decide } from './approvals.service.ts';

/**
 * The approval gate: the one rule every way of sending a post out asks (create with a time,
 * queue or series; schedule; publish now; post groups; bulk). Owners and admins are never held;
 * an editor is held while the workspace requires approvals, for any post not approved.
 */

/** Whether the caller's posts wait for an approval: an editor (or below) while approvals are required. */
export async function approvalsHold(ctx: Ctx, db: DbOrTx = ctx.deps.db): Promise<boolean> {
  if (roleReaches(ctx.caller.role, 'admin')) return false;
  return (await approvalsSetting(db, ctx.caller.accountId)) === 'required';
}

/** New posts that would be scheduled at once: a new post is never approved, so a held caller is refused. */
export async function requireApprovalForNew(ctx: Ctx, db: DbOrTx = ctx.deps.db): Promise<void> {
  if (!(await approvalsHold(ctx, db))) return;
  throw new Conflict(
    'approval_required',
    'Approvals are required in this workspace: save the post as a draft and submit it for review; it is scheduled or published once an owner or admin approves it.',
  );
}

/**
 * An existing post about to be scheduled or published. A held caller gets 409
 * approval_required unless the post is approved. A caller who is not held (an owner or admin,
 * or anyone while approvals are off) may go ahead; when the post is under review, their
 * schedule or publish is their approval, recorded as such, so the post does not stay waiting.
 * `postAt` says where the route's 409 carries the post (in `error`, or beside it).
 */
export async function passApprovalGate(
  ctx: Ctx,
  row: PostRow,
  postAt: 'error' | 'body' = 'error',
): Promise<PostRow> {
  if (row.approvalState === 'approved') return row;
  if (await approvalsHold(ctx)) {
    const post = { post: toPost(row) };
    throw new Conflict(
      'approval_required',
      heldMessage(row),
      postAt === 'error' ? { about: post } : { extra: post },
    );
  }
  if (!inReview(row)) return row;
  return decide(ctx, row, { state: 'approved', note: null, schedule: false });
}

function heldMessage(row: PostRow): string {
  if (row.approvalState === 'pending')
    return 'This post is waiting for an owner or admin to approve it; approvals are required in this workspace, so it goes out once approved.';
  if (row.approvalState === 'changes_requested')
    return 'An approver asked for changes to this post: edit it and submit it for review again; approvals are required in this workspace.';
  return 'Approvals are required in this workspace: submit this post for review; it is scheduled or published once an owner or admin approves it.';
}

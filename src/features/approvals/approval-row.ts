import type { PostRow } from '../posts/core/post-row.ts';
import type { ApprovalState, PostApproval } from './approval.schemas.ts';

/** Post.approval from a post row: null until the post is first submitted (or approved). */
export function approvalOf(row: PostRow): PostApproval | null {
  if (row.approvalState === null) return null;
  return {
    state: row.approvalState as ApprovalState,
    requestedBy: row.approvalRequestedBy,
    requestedAt: row.approvalRequestedAt,
    decidedBy: row.approvalDecidedBy,
    decidedAt: row.approvalDecidedAt,
    note: row.approvalNote,
  };
}

/** Submitted and not approved: such a post never falls due (core/transitions.ts). */
export const inReview = (row: Pick<PostRow, 'approvalState'>): boolean =>
  row.approvalState === 'pending' || row.approvalState === 'changes_requested';

/** The columns that put a post back in the queue of posts waiting for an approver. */
export const pendingColumns = (memberId: string, now: number, runAt: number | null) => ({
  approvalState: 'pending',
  approvalRequestedBy: memberId,
  approvalRequestedAt: now,
  approvalRunAt: runAt,
  approvalDecidedBy: null,
  approvalDecidedAt: null,
  approvalNote: null,
});

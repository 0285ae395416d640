import type { DbOrTx } from '../../../db/client.ts';
import { posts } from '../../../db/schema/index.ts';
import type { PostStatus } from '../../../domain/enums.ts';
import { newId } from '../../../lib/ids.ts';
import { requireOwned } from '../../tenancy.ts';
import type { ApprovalState, Post, PostApproval } from './post.schemas.ts';

export type PostRow = typeof posts.$inferSelect;

/**
 * The contract's Post: the claim and retry bookkeeping columns never leave the service.
 * `platformPostIds` is part 1 (`platformPostId`) followed by the thread parts published so far.
 */
export const toPost = (row: PostRow): Post => ({
  id: row.id,
  accountId: row.accountId,
  brandId: row.brandId,
  channelId: row.channelId,
  platform: row.platform,
  status: row.status as PostStatus,
  text: row.text,
  mediaIds: row.mediaIds,
  scheduledFor: row.scheduledFor,
  publishedAt: row.publishedAt,
  platformPostId: row.platformPostId,
  platformUrl: row.platformUrl,
  thread: row.thread,
  firstComment: row.firstComment,
  platformPostIds: row.platformPostId === null ? [] : [row.platformPostId, ...row.threadPostIds],
  firstCommentId: row.firstCommentId,
  error: row.error,
  seriesId: row.seriesId,
  groupId: row.groupId,
  approval: approvalOf(row),
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** The caller's post, or 404 (also for another account's id). */
export async function loadPostRow(db: DbOrTx, accountId: string, id: string): Promise<PostRow> {
  return requireOwned({ accountId, db }, posts, id, 'Post');
}

/** A new post row: a draft, or scheduled at `runAt` (the row is then its own pending publish job). */
/** A checked draft's fields (post-rules.ts CheckedDraft), named here so the two modules do not import each other. */
export interface NewPostFields {
  text: string;
  channelId: string | null;
  brandId: string | null;
  platform: string;
  mediaIds: string[];
  thread: string[];
  firstComment: string | null;
}

export function newPostRow(accountId: string, draft: NewPostFields, runAt: number | undefined, now: number) {
  return {
    id: newId('post'),
    accountId,
    brandId: draft.brandId,
    channelId: draft.channelId,
    platform: draft.platform,
    status: runAt === undefined ? 'draft' : 'scheduled',
    text: draft.text,
    mediaIds: draft.mediaIds,
    thread: draft.thread,
    firstComment: draft.firstComment,
    scheduledFor: runAt ?? null,
    createdAt: now,
    updatedAt: now,
  } satisfies typeof posts.$inferInsert;
}

/** Post.approval from a post row: null until the post is first submitted (or approved). */
export function approvalOf(row: PostRow): PostApproval | null {
  if (row.approvalState === null) return null;
  return {
    state: row.approvalState as ApprovalState,
    requestedBy: row.approvalRequestedBy,
    requestedAt: row.approvalRequestedAt,
    runAt: row.approvalRunAt,
    decidedBy: row.approvalDecidedBy,
    decidedAt: row.approvalDecidedAt,
    note: row.approvalNote,
  };
}

/** Submitted and not approved (pending, or sent back with changes asked): such a post never falls due (transitions.ts). */
export const IN_REVIEW_STATES = ['pending', 'changes_requested'] as const satisfies readonly ApprovalState[];

export const inReview = (row: Pick<PostRow, 'approvalState'>): boolean =>
  (IN_REVIEW_STATES as readonly (string | null)[]).includes(row.approvalState);

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

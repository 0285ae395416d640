import type { DbOrTx } from '../../db/client.ts';
import { posts } from '../../db/schema/index.ts';
import type { PostStatus } from '../../domain/enums.ts';
import { requireOwned } from '../tenancy.ts';
import type { Post } from './posts.schemas.ts';

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
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** The caller's post, or 404 (also for another account's id). */
export async function loadPostRow(db: DbOrTx, accountId: string, id: string): Promise<PostRow> {
  return requireOwned({ accountId, db }, posts, id, 'Post');
}

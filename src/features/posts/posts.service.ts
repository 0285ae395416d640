import { and, eq } from 'drizzle-orm';
import { requireScope } from '../../caller.ts';
import type { Call } from '../../context.ts';
import { postGroups, posts, series } from '../../db/schema/index.ts';
import { Conflict, NotFound } from '../../domain/errors.ts';
import { SweepName } from '../../wake/sweep-names.ts';
import { requireApprovalForNew } from '../approvals/approval-gate.ts';
import { queueZone } from '../queues/queue-assign.ts';
import { createQueuedPost } from '../queues/queue-post.ts';
import { planProblems, seriesZone } from '../series/plan-rules.ts';
import { startSeries } from '../series/series.service.ts';
import { pageOwned, requireReference } from '../tenancy.ts';
import type { Post } from './core/post.schemas.ts';
import { loadPostRow, newPostRow, type PostRow, toPost } from './core/post-row.ts';
import { checkOne, type PostDraft, scheduleProblems } from './core/post-rules.ts';
import { changePost } from './post-changes.ts';
import type {
  CreatePostRequest,
  CreatePostResult,
  PostListQuery,
  UpdatePostRequest,
} from './posts.schemas.ts';

/**
 * Creates a draft, or a scheduled post when `runAt` is given (its pending job is the row
 * itself); with `queue: true` at the channel's next free queue slot; with `repeat` the first
 * occurrence of a new series (series.service.ts).
 */
export async function createPost({ ctx, input }: Call<CreatePostRequest>): Promise<CreatePostResult> {
  // A post created with runAt, into the queue or as a series is scheduled to go out: that is
  // publishing, not drafting, and it passes the approval gate.
  if (input.runAt !== undefined || input.queue || input.repeat) {
    requireScope(ctx.caller, 'publish', 'Creating a post that is scheduled (runAt, queue or repeat)');
    await requireApprovalForNew(ctx);
  }
  const now = ctx.deps.clock.now();
  const draft: PostDraft = {
    text: input.text,
    channelId: input.channelId ?? null,
    brandId: input.brandId ?? null,
    platform: input.platform,
    mediaIds: input.mediaIds ?? [],
    thread: input.thread ?? [],
    firstComment: input.firstComment ?? null,
  };
  const extra = [
    ...(input.runAt === undefined ? [] : scheduleProblems(input.runAt, draft.channelId, now)),
    ...planProblems(input, draft.channelId, now),
  ];
  const checked = await checkOne(ctx, draft, extra);
  if (input.repeat) {
    const timezone = input.queue
      ? await queueZone(ctx.deps.db, checked.channelId!)
      : await seriesZone(ctx, input.repeat, checked.channelId);
    return startSeries(ctx, checked, { runAt: input.runAt, repeat: input.repeat, timezone }, now);
  }
  if (input.queue) return createQueuedPost(ctx, checked, now);
  const [row] = await ctx.deps.db
    .insert(posts)
    .values(newPostRow(ctx.caller.accountId, checked, input.runAt, now))
    .returning();
  if (input.runAt !== undefined) ctx.deps.wake(SweepName.publish, input.runAt);
  return { post: toPost(row!) };
}

/** The list filters (also the export's): undefined when none is set. */
export const postListFilter = (input: Omit<PostListQuery, 'limit' | 'offset'>) =>
  and(
    input.status ? eq(posts.status, input.status) : undefined,
    input.seriesId ? eq(posts.seriesId, input.seriesId) : undefined,
    input.groupId ? eq(posts.groupId, input.groupId) : undefined,
    input.approval ? eq(posts.approvalState, input.approval) : undefined,
  );

export async function listPosts({ ctx, input }: Call<PostListQuery>) {
  if (input.seriesId)
    await requireReference(ctx, series, input.seriesId, { what: 'Series', path: 'querystring.seriesId' });
  if (input.groupId)
    await requireReference(ctx, postGroups, input.groupId, {
      what: 'Post group',
      path: 'querystring.groupId',
    });
  const { items, pagination } = await pageOwned(ctx, posts, input, postListFilter(input));
  return { posts: items.map(toPost), pagination };
}

export async function getPost({ ctx, input }: Call<{ id: string }>): Promise<Post> {
  return toPost(await loadPostRow(ctx.deps.db, ctx.caller.accountId, input.id));
}

const notDraft = (row: PostRow) =>
  new Conflict('not_draft', `Only drafts can be edited; this post is ${row.status}.`, {
    about: { post: toPost(row) },
  });

/** Edits a draft; a post that stopped being one meanwhile is refused with 409 not_draft. */
export function updatePost({ ctx, input }: Call<{ id: string; changes: UpdatePostRequest }>): Promise<Post> {
  return changePost({
    ctx,
    input: { id: input.id, transition: 'edit', changes: input.changes, refusal: notDraft },
  });
}

/**
 * Deletes the post in whatever state: a scheduled post's pending job goes with its row. A
 * post already published stays on the platform; only our record is removed.
 */
export async function deletePost({ ctx, input }: Call<{ id: string }>): Promise<{ deleted: boolean }> {
  const [row] = await ctx.deps.db
    .delete(posts)
    .where(and(eq(posts.id, input.id), eq(posts.accountId, ctx.caller.accountId)))
    .returning({ id: posts.id });
  if (!row) throw new NotFound('Post');
  return { deleted: true };
}

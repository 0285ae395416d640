import { and, desc, eq } from 'drizzle-orm';
import type { Call, Ctx } from '../../context.ts';
import { posts } from '../../db/schema/index.ts';
import { conflict, type ErrorDetail, invalidRequest, notFound } from '../../http/errors.ts';
import { paginate } from '../../http/schemas.ts';
import { newId } from '../../lib/ids.ts';
import { loadPostRow, type PostRow, toPost } from './post-row.ts';
import { type CheckedDraft, checkDraft, loadLookup, type PostDraft } from './post-rules.ts';
import type { CreatePostRequest, Post, PostListQuery, UpdatePostRequest } from './posts.schemas.ts';

/** The name of the due-post sweep, for `deps.wake`. */
export const PUBLISH_SWEEP = 'publish';

export const invalidPost = (details: ErrorDetail[]) =>
  invalidRequest('The post did not validate: fix the listed fields.', details);

/**
 * Scheduling needs a time in the future and a channel to publish through: a scheduled post
 * without a channel could only fail at its due time, so it is refused now instead.
 */
export function scheduleProblems(
  runAt: number,
  channelId: string | null,
  now: number,
  prefix = '',
): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (runAt <= now)
    problems.push({ path: `${prefix}runAt`, message: `Must be in the future (now is ${now})` });
  if (!channelId)
    problems.push({ path: `${prefix}channelId`, message: 'A scheduled post needs a channel to publish to' });
  return problems;
}

export async function checkOne(ctx: Ctx, draft: PostDraft, extra: ErrorDetail[] = []): Promise<CheckedDraft> {
  const lookup = await loadLookup(ctx, [draft]);
  const { draft: checked, problems } = checkDraft(draft, lookup);
  if (problems.length + extra.length > 0) throw invalidPost([...problems, ...extra]);
  return checked;
}

export function newPostRow(ctx: Ctx, draft: CheckedDraft, runAt: number | undefined, now: number) {
  return {
    id: newId('post'),
    accountId: ctx.caller.accountId,
    brandId: draft.brandId,
    channelId: draft.channelId,
    platform: draft.platform,
    status: runAt === undefined ? 'draft' : 'scheduled',
    text: draft.text,
    mediaIds: draft.mediaIds,
    scheduledFor: runAt ?? null,
    createdAt: now,
    updatedAt: now,
  } satisfies typeof posts.$inferInsert;
}

/** Creates a draft, or a scheduled post when `runAt` is given (its pending job is the row itself). */
export async function createPost({ ctx, input }: Call<CreatePostRequest>): Promise<Post> {
  const now = ctx.deps.clock.now();
  const draft: PostDraft = {
    text: input.text,
    channelId: input.channelId ?? null,
    brandId: input.brandId ?? null,
    platform: input.platform,
    mediaIds: input.mediaIds ?? [],
  };
  const extra = input.runAt === undefined ? [] : scheduleProblems(input.runAt, draft.channelId, now);
  const checked = await checkOne(ctx, draft, extra);
  const [row] = await ctx.deps.db
    .insert(posts)
    .values(newPostRow(ctx, checked, input.runAt, now))
    .returning();
  if (input.runAt !== undefined) ctx.deps.wake(PUBLISH_SWEEP, input.runAt);
  return toPost(row!);
}

export async function listPosts({ ctx, input }: Call<PostListQuery>) {
  const where = and(
    eq(posts.accountId, ctx.caller.accountId),
    input.status ? eq(posts.status, input.status) : undefined,
  );
  const { items, pagination } = await paginate(input, (limit, offset) =>
    ctx.deps.db
      .select()
      .from(posts)
      .where(where)
      .orderBy(desc(posts.createdAt), desc(posts.id))
      .limit(limit)
      .offset(offset),
  );
  return { posts: items.map(toPost), pagination };
}

export async function getPost({ ctx, input }: Call<{ id: string }>): Promise<Post> {
  return toPost(await loadPostRow(ctx.deps.db, ctx.caller.accountId, input.id));
}

const notDraft = (row: PostRow) =>
  conflict('not_draft', `Only drafts can be edited; this post is ${row.status}.`, { post: toPost(row) });

/** Edits a draft. The write is conditional on the post still being a draft, so it cannot race a claim. */
export async function updatePost({
  ctx,
  input,
}: Call<{ id: string; changes: UpdatePostRequest }>): Promise<Post> {
  const row = await loadPostRow(ctx.deps.db, ctx.caller.accountId, input.id);
  if (row.status !== 'draft') throw notDraft(row);
  const { changes } = input;
  const checked = await checkOne(ctx, {
    text: changes.text ?? row.text,
    channelId: changes.channelId === undefined ? row.channelId : changes.channelId,
    brandId: changes.brandId === undefined ? row.brandId : changes.brandId,
    platform: row.platform,
    mediaIds: changes.mediaIds ?? row.mediaIds,
  });
  const [updated] = await ctx.deps.db
    .update(posts)
    .set({
      text: checked.text,
      channelId: checked.channelId,
      brandId: checked.brandId,
      mediaIds: checked.mediaIds,
      updatedAt: ctx.deps.clock.now(),
    })
    .where(and(eq(posts.id, row.id), eq(posts.status, 'draft')))
    .returning();
  if (!updated) throw notDraft(await loadPostRow(ctx.deps.db, ctx.caller.accountId, input.id));
  return toPost(updated);
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
  if (!row) throw notFound('Post');
  return { deleted: true };
}

import { and, eq } from 'drizzle-orm';
import { requireScope } from '../../caller.ts';
import type { Call, Ctx } from '../../context.ts';
import { postGroups, posts } from '../../db/schema/index.ts';
import type { ErrorDetail } from '../../domain/errors.ts';
import { Invalid } from '../../domain/errors.ts';
import { newId } from '../../lib/ids.ts';
import { SweepName } from '../../wake/sweep-names.ts';
import { toPost } from '../posts/core/post-row.ts';
import { checkDraft, loadLookup, type PostDraft, scheduleProblems } from '../posts/core/post-rules.ts';
import { writePosts } from '../posts/post-writer.ts';
import { channelsWithSlots } from '../queues/queue-assign.ts';
import { requireOwned } from '../tenancy.ts';
import type { CreatePostGroupRequest, PostGroupResult } from './post-groups.schemas.ts';

type GroupRow = typeof postGroups.$inferSelect;

/**
 * Every problem of the request, each at its path (`variants[1].text`): the group's own fields,
 * then each variant checked against its own channel's platform as POST /v1/posts checks a post.
 */
async function groupProblems(ctx: Ctx, input: CreatePostGroupRequest, drafts: PostDraft[], now: number) {
  const problems: ErrorDetail[] = [];
  if (input.runAt !== undefined && input.queue)
    problems.push({ path: 'queue', message: 'Give runAt or queue: true, not both' });
  if (input.runAt !== undefined)
    problems.push(...scheduleProblems(input.runAt, input.variants[0]!.channelId, now));
  const lookup = await loadLookup(ctx, drafts);
  const withSlots = input.queue
    ? await channelsWithSlots(ctx.deps.db, [...lookup.channels.keys()])
    : new Set<string>();
  const seen = new Set<string>();
  const checked = drafts.map((draft, i) => {
    const prefix = `variants[${i}].`;
    const result = checkDraft(draft, lookup, prefix);
    const id = draft.channelId!;
    if (seen.has(id))
      result.problems.push({
        path: `${prefix}channelId`,
        message: 'Another variant goes to this channel already; give each channel one variant',
      });
    seen.add(id);
    if (input.queue && lookup.channels.has(id) && !withSlots.has(id))
      result.problems.push({
        path: `${prefix}channelId`,
        message: 'This channel has no queue slots; set some first, or give runAt',
      });
    problems.push(...result.problems);
    return result.draft;
  });
  return { checked, problems };
}

/**
 * POST /v1/post-groups: one post per variant, each on its own channel, all or none. Drafts when
 * neither `runAt` nor `queue` is given; scheduled at `runAt`; or each at its channel's next
 * free queue slot. Every post carries the group's id and is then a post like any other.
 */
export async function createPostGroup({
  ctx,
  input,
}: Call<CreatePostGroupRequest>): Promise<PostGroupResult> {
  if (input.runAt !== undefined || input.queue)
    requireScope(ctx.caller, 'publish', 'Creating a post group that is scheduled (runAt or queue)');
  const now = ctx.deps.clock.now();
  const drafts: PostDraft[] = input.variants.map((v) => ({
    text: v.text,
    channelId: v.channelId,
    brandId: null,
    platform: undefined,
    mediaIds: v.mediaIds ?? [],
    thread: v.thread ?? [],
    firstComment: v.firstComment ?? null,
  }));
  const { checked, problems } = await groupProblems(ctx, input, drafts, now);
  if (problems.length > 0)
    throw new Invalid(
      'The post group did not validate: fix the listed fields; nothing was created.',
      problems,
    );
  const groupId = newId('postGroup');
  const entries = checked.map((draft) => ({ draft, runAt: input.runAt, queue: input.queue === true }));
  const { group, rows } = await ctx.deps.db.transaction(async (tx) => {
    // The group row first (its posts reference it), then its post ids once they exist.
    await tx
      .insert(postGroups)
      .values({ id: groupId, accountId: ctx.caller.accountId, postIds: [], createdAt: now });
    const rows = await writePosts(ctx, tx, entries, now, { groupId });
    const [group] = await tx
      .update(postGroups)
      .set({ postIds: rows.map((r) => r.id) })
      .where(eq(postGroups.id, groupId))
      .returning();
    return { group: group!, rows };
  });
  const due = rows.flatMap((r) => (r.scheduledFor === null ? [] : [r.scheduledFor]));
  if (due.length > 0) ctx.deps.wake(SweepName.publish, Math.min(...due));
  return { group: toGroup(group, group.postIds), posts: rows.map(toPost) };
}

const toGroup = (row: GroupRow, postIds: string[]) => ({ id: row.id, postIds, createdAt: row.createdAt });

/** The caller's group (404 for an unknown or another account's id) and its posts, in variant order. */
export async function loadGroup(ctx: Ctx, id: string) {
  const group = await requireOwned(ctx, postGroups, id, 'Post group');
  const rows = await ctx.deps.db
    .select()
    .from(posts)
    .where(and(eq(posts.groupId, group.id), eq(posts.accountId, ctx.caller.accountId)));
  const order = new Map(group.postIds.map((postId, i) => [postId, i]));
  rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return { group, rows };
}

export async function getPostGroup({ ctx, input }: Call<{ id: string }>): Promise<PostGroupResult> {
  const { group, rows } = await loadGroup(ctx, input.id);
  return {
    group: toGroup(
      group,
      rows.map((r) => r.id),
    ),
    posts: rows.map(toPost),
  };
}

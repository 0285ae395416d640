import { and, eq, inArray } from 'drizzle-orm';
import type { Call } from '../../context.ts';
import { channels, plans, posts } from '../../db/schema/index.ts';
import type { Platform } from '../../domain/enums.ts';
import { Invalid } from '../../domain/errors.ts';
import { hasThreads } from '../../platforms/profiles.ts';
import { draftParts, planItemDrafts, rubricFor } from '../../scoring/index.ts';
import type { Post } from '../posts/core/post.schemas.ts';
import { toPost } from '../posts/core/post-row.ts';
import { createPost } from '../posts/posts.service.ts';
import { requireOwned, requireReference } from '../tenancy.ts';
import type { PlanDraftsRequest, SavedPlan } from './plans.schemas.ts';
import { toSavedPlan } from './plans.service.ts';

/**
 * "Turn into drafts" (issue 34 item 3): one post per item, made of the item's hook and the
 * brief's facts for that item (scoring/writers/plan-item-facts.ts), never the whole brief; on a
 * platform with threads a draft longer than one post is a thread. With `schedule` each post
 * goes on its item's suggested instant (`when`), through the same createPost verb as POST
 * /v1/posts (the publish scope, the approval gate, the channel's checks). Each item remembers
 * its post, so asking again makes only what is missing: an item whose post still exists is
 * answered with that post, one whose post was deleted gets a new one.
 */
export async function turnIntoDrafts({
  ctx,
  input,
}: Call<{ id: string; request: PlanDraftsRequest }>): Promise<{
  plan: SavedPlan;
  posts: Post[];
  made: number;
}> {
  const row = await requireOwned(ctx, plans, input.id, 'Plan');
  const { request } = input;
  const channelId = request.channelId ?? row.channelId;
  const platform = row.platform as Platform;
  if (request.channelId) {
    const channel = await requireReference(ctx, channels, request.channelId, {
      what: 'Channel',
      path: 'channelId',
    });
    // The drafts are shaped for the plan's platform (its limit, its threads).
    if (channel.platform !== platform)
      throw new Invalid(`channelId names a ${channel.platform} channel, and the plan is for ${platform}.`, [
        { path: 'channelId', message: `Not a ${platform} channel` },
      ]);
  }
  if (request.schedule && !channelId)
    throw new Invalid('Scheduling drafts needs a channel: name a channelId, or save the plan with one.', [
      { path: 'channelId', message: 'Required when schedule is true and the plan has no channel' },
    ]);
  const wanted = request.slots ? new Set(request.slots) : null;
  const unknown = [...(wanted ?? [])].filter((slot) => !row.items.some((i) => i.slot === slot));
  if (unknown.length)
    throw new Invalid(`The plan has no item in slot ${unknown.join(', ')}.`, [
      { path: 'slots', message: `No such slot: ${unknown.join(', ')}` },
    ]);
  const chosen = row.items.filter((i) => !wanted || wanted.has(i.slot));

  // Posts made before that still exist are kept; the rest are made now.
  const earlier = chosen.flatMap((i) => (i.postId ? [i.postId] : []));
  const existing = new Map(
    (earlier.length
      ? await ctx.deps.db
          .select()
          .from(posts)
          .where(and(eq(posts.accountId, ctx.caller.accountId), inArray(posts.id, earlier)))
      : []
    ).map((p) => [p.id, toPost(p)]),
  );
  const maxChars = hasThreads(platform) ? undefined : rubricFor(platform).maxLength;
  const texts = planItemDrafts(row.brief, row.items, maxChars);
  const now = ctx.deps.clock.now();
  const made = new Map<number, Post>();
  const out: Post[] = [];
  try {
    for (const item of chosen) {
      const before = item.postId ? existing.get(item.postId) : undefined;
      if (before) {
        out.push(before);
        continue;
      }
      const [text, ...thread] = draftParts(platform, texts.get(item.slot)!);
      const runAt = request.schedule && item.when !== null && item.when > now ? item.when : undefined;
      const { post } = await createPost({
        ctx,
        input: {
          text,
          thread,
          channelId: channelId ?? undefined,
          platform: channelId ? undefined : platform,
          runAt,
        },
      });
      made.set(item.slot, post);
      out.push(post);
    }
  } finally {
    // What was made is remembered even when a later item failed: asking again makes the rest.
    if (made.size) await remember(ctx, row.id, made);
  }
  const saved = await requireOwned(ctx, plans, input.id, 'Plan');
  return { plan: toSavedPlan(saved), posts: out, made: made.size };
}

async function remember(ctx: Call<unknown>['ctx'], id: string, made: Map<number, Post>): Promise<void> {
  const [row] = await ctx.deps.db
    .select()
    .from(plans)
    .where(and(eq(plans.id, id), eq(plans.accountId, ctx.caller.accountId)));
  if (!row) return;
  await ctx.deps.db
    .update(plans)
    .set({
      items: row.items.map((i) => (made.has(i.slot) ? { ...i, postId: made.get(i.slot)!.id } : i)),
      updatedAt: ctx.deps.clock.now(),
    })
    .where(eq(plans.id, id));
}

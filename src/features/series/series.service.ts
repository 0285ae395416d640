import { and, eq } from 'drizzle-orm';
import type { Call, Ctx } from '../../context.ts';
import { posts, series } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { SweepName } from '../../wake/sweep-names.ts';
import type { Post } from '../posts/core/post.schemas.ts';
import { toPost } from '../posts/core/post-row.ts';
import type { CheckedDraft } from '../posts/core/post-rules.ts';
import { transitionPostIds } from '../posts/core/transitions.ts';
import { type SlotTaken, slotOf } from '../queues/slot-times.ts';
import { pageOwned, requireOwned } from '../tenancy.ts';
import type { Repeat, Series } from './series.schemas.ts';
import { extendSeries, isEvergreen, type SeriesRow } from './series-extend.ts';

export const toSeries = (row: SeriesRow): Series => ({
  id: row.id,
  accountId: row.accountId,
  kind: isEvergreen(row) ? 'evergreen' : 'recurring',
  channelId: row.channelId,
  platform: row.platform,
  text: row.text,
  every: row.unit === null ? null : { unit: row.unit as 'day' | 'week' | 'month', n: row.every! },
  minGapDays: row.minGapDays,
  until: row.until,
  count: row.count,
  timezone: row.timezone,
  status: row.status as Series['status'],
  startAt: row.startAt,
  occurrences: row.nextIndex,
  nextAt: row.nextAt,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/**
 * Starts a series from a checked draft (POST /v1/posts with `repeat`; the rules were checked by
 * the caller) and creates its first occurrences in the same transaction: the response carries
 * the first, and a failure leaves no series behind.
 */
export async function startSeries(
  ctx: Ctx,
  draft: CheckedDraft,
  input: { runAt?: number; repeat: Repeat; timezone: string },
  now: number,
): Promise<{ post: Post; series: Series; slot?: SlotTaken }> {
  const evergreen = input.repeat.minGapDays !== undefined;
  const startAt = input.runAt ?? now;
  const result = await ctx.deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(series)
      .values({
        id: newId('series'),
        accountId: ctx.caller.accountId,
        channelId: draft.channelId,
        brandId: draft.brandId,
        platform: draft.platform,
        text: draft.text,
        mediaIds: draft.mediaIds,
        thread: draft.thread,
        firstComment: draft.firstComment,
        unit: input.repeat.every?.unit ?? null,
        every: input.repeat.every?.n ?? null,
        timezone: input.timezone,
        startAt,
        until: input.repeat.until ?? null,
        count: input.repeat.count ?? null,
        minGapDays: input.repeat.minGapDays ?? null,
        status: 'active',
        nextAt: startAt,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return extendSeries(tx, row!, now, true);
  });
  const first = result.created[0]!;
  ctx.deps.wake(SweepName.publish, first.scheduledFor!);
  return {
    post: toPost(first),
    series: toSeries(result.series),
    ...(evergreen ? { slot: slotOf(first.scheduledFor!, input.timezone) } : {}),
  };
}

export async function getSeries({ ctx, input }: Call<{ id: string }>): Promise<Series> {
  return toSeries(await requireOwned(ctx, series, input.id, 'Series'));
}

export async function listSeries({ ctx, input }: Call<{ limit: number; offset: number }>) {
  const { items, pagination } = await pageOwned(ctx, series, input);
  return { series: items.map(toSeries), pagination };
}

/**
 * DELETE /v1/series/{id}: no further occurrences are created, and every occurrence not yet on
 * its way to the platform is canceled (the post state machine's `cancel`). Published
 * occurrences, and one whose create is already sent, are left as they are. Repeating it is
 * harmless: the series stays canceled and nothing more is canceled.
 */
export async function cancelSeries({ ctx, input }: Call<{ id: string }>) {
  await requireOwned(ctx, series, input.id, 'Series');
  const now = ctx.deps.clock.now();
  return ctx.deps.db.transaction(async (tx) => {
    // The series row first: a sweep extending it holds this lock, so it cannot add an occurrence after.
    const [row] = await tx
      .update(series)
      .set({ status: 'canceled', nextAt: null, updatedAt: now })
      .where(and(eq(series.id, input.id), eq(series.accountId, ctx.caller.accountId)))
      .returning();
    const canceled = await transitionPostIds(
      tx,
      'cancel',
      and(eq(posts.seriesId, input.id), eq(posts.accountId, ctx.caller.accountId)),
      { retryAt: null, claimedBy: null, updatedAt: now },
    );
    return { series: toSeries(row!), canceled };
  });
}

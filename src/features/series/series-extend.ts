import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { posts, series } from '../../db/schema/index.ts';
import { DomainError } from '../../domain/errors.ts';
import { newPostRow, type PostRow } from '../posts/core/post-row.ts';
import type { CheckedDraft } from '../posts/core/post-rules.ts';
import { lockQueue, nextFreeSlot, SLOT_TAKING_STATES } from '../queues/queue-assign.ts';
import { occurrenceAt } from './occurrence-times.ts';
import type { RepeatUnit } from './series.schemas.ts';

export type SeriesRow = typeof series.$inferSelect;

const DAY = 86_400_000;
/** Occurrences are created this far ahead; the series sweep extends the horizon as time passes. */
export const SERIES_HORIZON_MS = 28 * DAY;
/** Occurrences one extension creates at most (a daily series fills a 28-day horizon with 28). */
const MAX_PER_EXTENSION = 100;
/** An evergreen series whose channel has no queue slots looks again after this. */
const EMPTY_QUEUE_RETRY_MS = DAY;

export const isEvergreen = (s: SeriesRow) => s.minGapDays !== null;

const draftOf = (s: SeriesRow): CheckedDraft => ({
  text: s.text,
  channelId: s.channelId,
  brandId: s.brandId,
  platform: s.platform,
  mediaIds: s.mediaIds,
  thread: s.thread,
  firstComment: s.firstComment,
});

const recurrenceOf = (s: SeriesRow) => ({
  startAt: s.startAt,
  unit: s.unit as RepeatUnit,
  every: s.every!,
  timezone: s.timezone,
});

/** Times of the channel's posts with the series' text: an evergreen slot keeps its gap from each. */
async function sameTextTimes(tx: DbOrTx, s: SeriesRow): Promise<number[]> {
  const rows = await tx
    .select({ scheduledFor: posts.scheduledFor, publishedAt: posts.publishedAt })
    .from(posts)
    .where(
      and(
        eq(posts.channelId, s.channelId!),
        eq(posts.text, s.text),
        inArray(posts.status, [...SLOT_TAKING_STATES]),
      ),
    );
  return rows.flatMap((r) => [r.publishedAt ?? r.scheduledFor].filter((t): t is number => t !== null));
}

/**
 * Creates the series' occurrences due within the horizon from `now`, each a scheduled post
 * carrying the series id and its index, and records how far it got. Runs inside a transaction
 * holding the series row (created there, or locked by the sweep); the unique (series_id,
 * series_index) index makes each occurrence exist once even so. `first`: create the first
 * occurrence whatever the horizon (the request that starts a series returns it).
 *
 * Recurring: occurrence k is at occurrenceAt(k); one whose time already passed when the sweep
 * reaches it (every worker down for the whole horizon) is skipped, not published late, and
 * still counts. Evergreen: the next free queue slot at least minGapDays after the previous
 * occurrence and minGapDays from any post of the channel with the same text. The series ends
 * when `count` occurrences exist or the next would fall after `until`.
 */
export async function extendSeries(
  tx: DbOrTx,
  s: SeriesRow,
  now: number,
  first = false,
): Promise<{ created: PostRow[]; series: SeriesRow }> {
  const horizon = now + SERIES_HORIZON_MS;
  const created: PostRow[] = [];
  let { nextIndex, nextAt, status } = s;
  const gapMs = (s.minGapDays ?? 0) * DAY;
  const avoid = isEvergreen(s) ? await sameTextTimes(tx, s) : [];
  while (status === 'active' && nextAt !== null && created.length < MAX_PER_EXTENSION) {
    if (s.count !== null && nextIndex >= s.count) {
      status = 'ended';
      break;
    }
    if (nextAt > horizon && !(first && created.length === 0)) break;
    let at = nextAt;
    if (isEvergreen(s)) {
      try {
        const queue = await lockQueue(tx, s.channelId!);
        at = await nextFreeSlot(tx, queue, now, { notBefore: nextAt, avoid, gapMs });
      } catch (err) {
        // The channel lost its slots: the creating request is told (409 queue_empty); the sweep looks again later.
        if (first || !(err instanceof DomainError && err.code === 'queue_empty')) throw err;
        nextAt = Math.max(nextAt, now + EMPTY_QUEUE_RETRY_MS);
        break;
      }
    }
    if (s.until !== null && at > s.until) {
      status = 'ended';
      break;
    }
    const index = nextIndex;
    nextIndex++;
    nextAt = isEvergreen(s) ? at + gapMs : occurrenceAt(recurrenceOf(s), nextIndex);
    if (at <= now) continue;
    const [row] = await tx
      .insert(posts)
      .values({ ...newPostRow(s.accountId, draftOf(s), at, now), seriesId: s.id, seriesIndex: index })
      .onConflictDoNothing()
      .returning();
    if (row) {
      created.push(row);
      avoid.push(at);
    }
  }
  // Known now rather than at the next sweep: the last occurrence exists, or the next is past `until`.
  if (s.count !== null && nextIndex >= s.count) status = 'ended';
  if (!isEvergreen(s) && s.until !== null && nextAt !== null && nextAt > s.until) status = 'ended';
  if (status !== 'active') nextAt = null;
  const [updated] = await tx
    .update(series)
    .set({ nextIndex, nextAt, status, updatedAt: now })
    .where(eq(series.id, s.id))
    .returning();
  return { created, series: updated! };
}

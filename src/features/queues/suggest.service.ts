import type { Call } from '../../context.ts';
import { channels } from '../../db/schema/index.ts';
import { median } from '../../lib/rank-stats.ts';
import { isoWeekday, wallOf } from '../../lib/zoned-time.ts';
import { accountZone } from '../account/settings.service.ts';
import { toHistoryEntry } from '../history/history.service.ts';
import { readHistory } from '../history/history-view.ts';
import { MIN_SLOT_POSTS, MIN_TIMING_POSTS } from '../insights/timing.ts';
import { requireOwned } from '../tenancy.ts';
import type { SuggestedSlot, SuggestQuery, SuggestResult } from './queues.schemas.ts';
import { dayName, readQueue, requireZone } from './queues.service.ts';

/**
 * The general figures, used when the author's history is too thin: the scoring rules' timing
 * signals (src/scoring/rules/rules-reach.ts, timingRules): midweek days (Tuesday to Thursday) and the
 * commute and lunch peaks (08:00, 12:00, 17:00). SCORING.md: day and hour effects are within
 * about 20% and noisy, which the note says.
 */
const GENERAL: Array<{ day: number; time: string; why: string }> = [
  { time: '08:00', why: 'a morning commute peak' },
  { time: '12:00', why: 'the lunch peak' },
  { time: '17:00', why: 'the evening commute peak' },
].flatMap(({ time, why }) => [2, 3, 4].map((day) => ({ day, time, why })));

const pad = (n: number) => String(n).padStart(2, '0');
const posts = (n: number) => `${n} ${n === 1 ? 'post' : 'posts'}`;

interface Cell {
  day: number;
  window: number;
  engagements: number[];
  hours: number[];
}

/** The most common hour of the cell's posts (the earliest on a tie). */
function usualHour(hours: number[]): number {
  const counts = new Map<number, number>();
  for (const h of hours) counts.set(h, (counts.get(h) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
}

/**
 * GET /v1/channels/{id}/queue/suggest: weekly slots from the author's own results on the
 * channel's platform. Each weekday x 3-hour window (the windows of /v1/insights) with at least
 * MIN_SLOT_POSTS posts and a median above the author's becomes a slot at the hour the author
 * most often posted in it, best first, with its evidence. With under MIN_TIMING_POSTS timed
 * posts, or no window above the median, the general figures are proposed instead, and said so.
 */
export async function suggestQueue({
  ctx,
  input,
}: Call<{ channelId: string } & SuggestQuery>): Promise<SuggestResult> {
  const channel = await requireOwned(ctx, channels, input.channelId, 'Channel');
  const queue = await readQueue({ ctx, input });
  const timezone = requireZone(
    input.timezone ?? queue?.timezone ?? (await accountZone(ctx.deps.db, ctx.caller.accountId)),
    'querystring.timezone',
  );
  const rows = (await readHistory(ctx.deps.db, ctx.caller.accountId)).filter(
    (row) => row.platform === channel.platform && row.publishedAt !== null && row.publishedTimeKnown,
  );
  const timed = rows.flatMap((row) => {
    const engagement = toHistoryEntry(row).engagement;
    return engagement === null ? [] : [{ at: row.publishedAt!, engagement }];
  });
  const authorMedian = median(timed.map((p) => p.engagement)) ?? 0;
  const cells = new Map<string, Cell>();
  for (const p of timed) {
    const wall = wallOf(p.at, timezone);
    const day = isoWeekday(wall.year, wall.month, wall.day);
    const window = Math.floor(wall.hour / 3);
    const key = `${day}:${window}`;
    const cell = cells.get(key) ?? { day, window, engagements: [], hours: [] };
    cell.engagements.push(p.engagement);
    cell.hours.push(wall.hour);
    cells.set(key, cell);
  }
  const ranked = [...cells.values()]
    .filter((c) => c.engagements.length >= MIN_SLOT_POSTS)
    .map((c) => ({
      cell: c,
      // On 1 + engagement, as /v1/insights does, so a median of 0 still divides.
      multiple: Number(((1 + median(c.engagements)!) / (1 + authorMedian)).toFixed(2)),
    }))
    .filter((c) => c.multiple > 1)
    .sort((a, b) => b.multiple - a.multiple || b.cell.engagements.length - a.cell.engagements.length);

  if (timed.length >= MIN_TIMING_POSTS && ranked.length > 0) {
    const slots: SuggestedSlot[] = ranked.slice(0, input.count).map(({ cell, multiple }) => {
      const from = pad(cell.window * 3);
      const to = pad(cell.window * 3 + 3);
      return {
        day: cell.day,
        time: `${pad(usualHour(cell.hours))}:00`,
        posts: cell.engagements.length,
        multiple,
        reason: `Your ${posts(cell.engagements.length)} on ${dayName(cell.day)}s between ${from}:00 and ${to}:00 earned ${multiple}x your median engagement.`,
      };
    });
    return {
      source: 'history',
      timezone,
      basedOn: timed.length,
      slots,
      note: `From ${posts(timed.length)} of yours on ${channel.platform} with engagement and a publish time: the weekday windows where you did best, each from at least ${MIN_SLOT_POSTS} posts, at the hour you usually posted in them.`,
    };
  }
  const needed = `at least ${MIN_TIMING_POSTS} are needed to judge your own best times`;
  const why =
    timed.length === 0
      ? `None of your posts on ${channel.platform} has engagement and a publish time yet; ${needed}`
      : timed.length < MIN_TIMING_POSTS
        ? `Only ${posts(timed.length)} of yours on ${channel.platform} ${timed.length === 1 ? 'has' : 'have'} engagement and a publish time; ${needed}`
        : `No weekday window of yours has at least ${MIN_SLOT_POSTS} posts with a median above your overall median`;
  return {
    source: 'general',
    timezone,
    basedOn: timed.length,
    slots: GENERAL.slice(0, input.count).map((g) => ({
      day: g.day,
      time: g.time,
      posts: null,
      multiple: null,
      // The slot's day and time are its own fields (shown beside the reason): not said again here.
      reason: `A midweek day at ${g.why} (general figure).`,
    })),
    note: `${why}, so these are the general figures: midweek days at the commute and lunch peaks. Day and hour effects are within about 20%, so your own results will say more once you have them.`,
  };
}

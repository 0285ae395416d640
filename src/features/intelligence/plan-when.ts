import type { Ctx } from '../../context.ts';
import { wallOf, zoneWords } from '../../lib/zoned-time.ts';
import { DAYS, localDayHour, WINDOWS } from '../insights/timing.ts';
import { freeSlots, type QueueRow } from '../queues/queue-assign.ts';
import { nextSlotTimes } from '../queues/slot-times.ts';

/**
 * Where a plan's items go in time (issue 34 item 2): the author's best weekly windows, or the
 * free slots of the channel's queue, in the writer's own zone (the queue's, else the account's),
 * each with the sentence that says why. Instants come from the queue's slot computation
 * (slot-times.ts), so a window or slot keeps its wall time across daylight-saving changes.
 */

/** One of the author's best weekly windows: a weekday (0 = Sunday) and a 3-hour window. */
export interface BestWindow {
  day: number;
  window: number;
  /** Posts of the author there, and their median as a multiple of the author's. */
  n: number;
  x: number;
}

export interface Placement {
  at: number;
  /** Why this instant, one sentence. */
  said: string;
}

/** Free slots looked at per item: best-window slots further ahead are preferred over the next ones. */
const LOOKAHEAD = 3;
const HOURS = 24 / WINDOWS.length;
/** A weekday's next occurrence is within a week (and an hour, across a daylight-saving change). */
const NEXT_SAME_DAY = 7 * 86_400_000 + 3_600_000;

const pad = (n: number) => String(n).padStart(2, '0');
const times = (x: number) => `${x.toFixed(1)}x`;
const posts = (n: number) => `${n} ${n === 1 ? 'post' : 'posts'}`;
const between = (window: number) => `between ${pad(window * HOURS)}:00 and ${pad(window * HOURS + HOURS)}:00`;

/** The weekday (0 = Sunday) a cadence wrote at the start of an item's angle ("Mon, week 1: ..."). */
const CADENCE_DAY = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat), week \d+: /;
export const cadenceDay = (angle: string): number | null => {
  const day = CADENCE_DAY.exec(angle)?.[1];
  return day ? DAYS.findIndex((d) => d.startsWith(day)) : null;
};

/**
 * `count` placements in time order, or none when there is neither a best window nor a queue.
 * `windows` are best first, bucketed in `zone`. With a queue: its next free slots, those inside
 * a best window first (among the next LOOKAHEAD x count free slots), the rest the soonest free.
 * Without one: the next instants of the best `count` windows, each at its window's start.
 */
export async function placeItems(
  ctx: Ctx,
  zone: string,
  windows: BestWindow[],
  queue: QueueRow | null,
  count: number,
  /** Under a cadence, the weekday each item's angle names: its time must fall on that day. */
  days: (number | null)[] | null = null,
): Promise<(Placement | undefined)[]> {
  const now = ctx.deps.clock.now();
  const local = localDayHour(zone);
  const windowOf = (at: number) => {
    const { day, hour } = local(at);
    return windows.find((w) => w.day === day && w.window === Math.floor(hour / HOURS));
  };
  const dayAt = (at: number) => DAYS[local(at).day]!;
  const slotSaid = (at: number) => {
    const wall = wallOf(at, zone);
    const slot = `${dayAt(at)} ${pad(wall.hour)}:${pad(wall.minute)} ${zoneWords(zone, at)} is a free slot in this channel's queue`;
    const w = windowOf(at);
    return w
      ? `${slot} and in one of your best windows: your ${posts(w.n)} on ${DAYS[w.day]}s ${between(w.window)} earned ${times(w.x)} your median.`
      : `${slot}.`;
  };
  const windowSaid = (w: BestWindow, at: number) =>
    `${DAYS[w.day]} ${WINDOWS[w.window]} ${zoneWords(zone, at)} is one of your best windows: ${posts(w.n)} there earned ${times(w.x)} your median.`;
  /** Each window's next `weeks` starts, as the queue's walk gives them. */
  const windowStarts = (list: BestWindow[], weeks: number) =>
    list
      .flatMap((w) =>
        nextSlotTimes(
          { timezone: zone, slots: [{ day: w.day === 0 ? 7 : w.day, time: `${pad(w.window * HOURS)}:00` }] },
          now + 1,
          weeks,
        ).map((at) => ({ at, said: windowSaid(w, at) })),
      )
      .sort((a, b) => a.at - b.at);

  if (days) {
    // The cadence has said each item's day: each takes a time on the next such day after the item
    // before it, so the days and weeks the angles name are the ones suggested; none where the
    // queue (or the author's best windows) has nothing that day.
    const candidates: Placement[] = queue
      ? (await freeSlots(ctx.deps.db, queue, now, 2 * LOOKAHEAD * Math.max(count, queue.slots.length))).map(
          (at) => ({ at, said: slotSaid(at) }),
        )
      : windowStarts(windows, count);
    let after = now;
    return days.map((day) => {
      const found = candidates.find(
        (c) => c.at > after && c.at - after <= NEXT_SAME_DAY && local(c.at).day === day,
      );
      if (found) after = found.at;
      return found;
    });
  }

  if (queue) {
    const free = await freeSlots(ctx.deps.db, queue, now, LOOKAHEAD * count);
    const inWindow = free.filter((at) => windowOf(at));
    const chosen = [...inWindow.slice(0, count)];
    for (const at of free) if (chosen.length < count && !chosen.includes(at)) chosen.push(at);
    return chosen.sort((a, b) => a - b).map((at) => ({ at, said: slotSaid(at) }));
  }

  if (!windows.length) return [];
  // Each best window as a weekly slot at its start: the queue's own walk gives its instants.
  return windowStarts(windows.slice(0, count), count).slice(0, count);
}

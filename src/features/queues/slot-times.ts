import type { QueueSlotValue } from '../../db/schema/index.ts';
import { addDays, instantOf, isoWeekday, wallOf } from '../../lib/zoned-time.ts';

/** A queue's shape as slot times need it. */
export interface QueueShape {
  timezone: string;
  slots: QueueSlotValue[];
}

/**
 * Wall time to instant is the costly step (several Intl reads), and queue assignment walks the
 * same upcoming slots again and again, so answers are kept per zone, date and time. Bounded:
 * cleared when full (a rebuild costs one walk).
 */
const instants = new Map<string, number>();
const MAX_CACHED = 200_000;

function slotInstant(timeZone: string, date: { year: number; month: number; day: number }, time: string) {
  const key = `${timeZone}|${date.year}-${date.month}-${date.day}|${time}`;
  let at = instants.get(key);
  if (at === undefined) {
    if (instants.size >= MAX_CACHED) instants.clear();
    const [hour, minute] = time.split(':').map(Number) as [number, number];
    at = instantOf({ ...date, hour, minute }, timeZone);
    instants.set(key, at);
  }
  return at;
}

/**
 * The queue's slot instants from `fromMs` on (inclusive), ascending, without end. Each slot is
 * its weekday's wall time in the queue's zone: 09:00 stays 09:00 local across daylight-saving
 * changes; a slot in a skipped hour falls on the first instant after the jump; a slot in a
 * repeated hour runs once (its first occurrence). Two slots landing on the same instant (02:30
 * and 03:00 on a spring-forward night) are one. An empty queue yields nothing.
 */
export function* slotTimes(queue: QueueShape, fromMs: number): Generator<number> {
  if (queue.slots.length === 0) return;
  const byDay = new Map<number, string[]>();
  for (const slot of queue.slots) byDay.set(slot.day, [...(byDay.get(slot.day) ?? []), slot.time]);
  for (const times of byDay.values()) times.sort();
  // Start a day early: the local date of `fromMs` may begin before a slot of the previous date.
  const start = wallOf(fromMs, queue.timezone);
  let last = Number.NEGATIVE_INFINITY;
  for (let offset = -1; ; offset++) {
    const date = addDays(start.year, start.month, start.day, offset);
    const times = byDay.get(isoWeekday(date.year, date.month, date.day));
    if (!times) continue;
    for (const time of times) {
      const at = slotInstant(queue.timezone, date, time);
      if (at < fromMs || at <= last) continue;
      last = at;
      yield at;
    }
  }
}

/** The first `count` slot instants from `fromMs`. */
export function nextSlotTimes(queue: QueueShape, fromMs: number, count: number): number[] {
  const out: number[] = [];
  if (count <= 0) return out;
  for (const at of slotTimes(queue, fromMs)) {
    out.push(at);
    if (out.length >= count) break;
  }
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Which slot an instant is in a queue's zone, for the create response (QueueSlotTaken). */
export function slotOf(at: number, timezone: string) {
  const wall = wallOf(at, timezone);
  return {
    at,
    timezone,
    day: isoWeekday(wall.year, wall.month, wall.day),
    time: `${pad(wall.hour)}:${pad(wall.minute)}`,
  };
}

/** The slot a queued post (or an evergreen occurrence) took, as slotOf answers it. */
export type SlotTaken = ReturnType<typeof slotOf>;

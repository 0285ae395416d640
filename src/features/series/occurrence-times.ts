import { addDays, daysInMonth, instantOf, wallOf } from '../../lib/zoned-time.ts';
import type { RepeatUnit } from './series.schemas.ts';

export interface Recurrence {
  startAt: number;
  unit: RepeatUnit;
  every: number;
  timezone: string;
}

/**
 * The time of occurrence `index` (0 = the first) of a recurring series: the first occurrence's
 * local date moved by index x every units, at the same local wall time in the series' zone, so
 * 09:00 stays 09:00 across daylight-saving changes (a skipped or repeated hour is resolved as
 * queue slots are: zoned-time.ts). Months keep the first occurrence's day of the month, or the
 * month's last day when it is shorter (the 31st: 28 or 29 February, 30 April).
 */
export function occurrenceAt(r: Recurrence, index: number): number {
  // The first is runAt itself (even the second pass of a repeated hour).
  if (index === 0) return r.startAt;
  const start = wallOf(r.startAt, r.timezone);
  const steps = index * r.every;
  let date: { year: number; month: number; day: number };
  if (r.unit === 'month') {
    const months = start.month - 1 + steps;
    const year = start.year + Math.floor(months / 12);
    const month = (months % 12) + 1;
    date = { year, month, day: Math.min(start.day, daysInMonth(year, month)) };
  } else {
    date = addDays(start.year, start.month, start.day, r.unit === 'week' ? steps * 7 : steps);
  }
  // The wall time of startAt to the minute; seconds and milliseconds of runAt are kept.
  const withinMinute = r.startAt - Math.floor(r.startAt / 60_000) * 60_000;
  return instantOf({ ...date, hour: start.hour, minute: start.minute }, r.timezone) + withinMinute;
}

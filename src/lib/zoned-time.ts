/**
 * Wall-clock time in an IANA zone, from the platform's Intl data (Node ships full ICU); no
 * hand-written offsets. Two questions: what is the local date and time of an instant, and
 * which instant is a local wall time. The second has three answers across daylight-saving
 * changes: one instant (most days), none (a skipped hour: the first valid instant after it is
 * taken, i.e. the moment the clocks jump), or two (a repeated hour: the earlier is taken, so a
 * slot in it runs once).
 */

export interface Wall {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** The zone's canonical name, or null when Intl does not know it. */
export function canonicalZone(timeZone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The local wall time of `epochMs` in `timeZone` (seconds dropped). */
export function wallOf(epochMs: number, timeZone: string): Wall {
  const wall: Wall = { year: 0, month: 0, day: 0, hour: 0, minute: 0 };
  for (const part of formatFor(timeZone).formatToParts(epochMs)) {
    if (part.type === 'year') wall.year = Number(part.value);
    else if (part.type === 'month') wall.month = Number(part.value);
    else if (part.type === 'day') wall.day = Number(part.value);
    else if (part.type === 'hour') wall.hour = Number(part.value) % 24;
    else if (part.type === 'minute') wall.minute = Number(part.value);
  }
  return wall;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** The wall time read as if it were UTC: the zone's offset is `asUtc(wall) - instant`. */
const asUtc = (w: Wall) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);

/** The zone's offset from UTC at an instant, in ms (whole minutes). */
export const offsetAt = (epochMs: number, timeZone: string) =>
  asUtc(wallOf(epochMs, timeZone)) - Math.floor(epochMs / MINUTE) * MINUTE;

/**
 * The instant a local wall time names (see the file comment for skipped and repeated times).
 * Offsets are read a day either side: no zone changes its offset twice within two days, so
 * they are the offsets before and after any change near this wall time.
 */
export function instantOf(wall: Wall, timeZone: string): number {
  const naive = asUtc(wall);
  const before = offsetAt(naive - DAY, timeZone);
  const after = offsetAt(naive + DAY, timeZone);
  const matches = [naive - before, naive - after].filter((t) => asUtc(wallOf(t, timeZone)) === naive);
  if (matches.length > 0) return Math.min(...matches);
  // Skipped: the clocks jump between naive - before (the old offset) and naive - after.
  let lo = naive - after;
  let hi = naive - before;
  // Invariant: lo shows a wall time before `wall`, hi one after it. Minute steps suffice.
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    if (asUtc(wallOf(mid, timeZone)) < naive) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** ISO weekday (Monday = 1 ... Sunday = 7) of a calendar date. */
export const isoWeekday = (year: number, month: number, day: number) =>
  ((new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7) + 1;

/** The calendar date `days` after the given one (any sign). */
export function addDays(year: number, month: number, day: number, days: number) {
  const d = new Date(Date.UTC(year, month - 1, day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** Days in a month (1-12). */
export const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * The zone as a person names it in a sentence: its generic name from the platform's locale data
 * ("Central European Time", "Eastern Time"; the same name summer and winter), "UTC" for UTC, an
 * offset ("GMT+03:00") for a zone with no name. Never the IANA id, which reads as a code.
 */
export function zoneWords(timeZone: string, at: number): string {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return 'UTC';
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longGeneric' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  return !name || name === 'GMT' || name === 'GMT+00:00' ? 'UTC' : name;
}

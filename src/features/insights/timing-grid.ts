import { analyse, DAYS, localDayHour, type TimedPost, type TimingSlot, WINDOWS } from './timing.ts';

/**
 * Best posting times by weekday and time of day together: one cell per weekday and 3-hour
 * window (7 x 8 = 56), each tested against the author's other timed posts exactly as a day or a
 * window is (timing.ts), with the Bonferroni divisor counting every cell tested. Windows of 3
 * hours rather than single hours: an author's history of 50 to 100 posts (the typical author in
 * the shared data) spread over 168 weekday-hours leaves under one post a cell, and no cell could
 * reach the 5 posts a multiple needs.
 */

export const HOURS_PER_CELL = 24 / WINDOWS.length;

export interface TimingCell extends TimingSlot {
  /** 0 = Sunday, as `dayOfWeek` in a score request. */
  day: number;
  /** The window's first hour on the author's clock: 0, 3, … 21. */
  hour: number;
}

export interface TimingGrid {
  posts: number;
  hoursPerCell: number;
  cells: TimingCell[];
  best: string[];
  worst: string[];
  note: string;
}

const GRID_WORDS = {
  what: 'weekdays and times together',
  needs: 'a publish time',
  slot: 'weekday window',
  standsOut: 'weekday and time',
};

/** The grid from posts whose time of day is known, placed on the clock of `timeZone`. */
export function timingGrid(posts: TimedPost[], timeZone: string): TimingGrid {
  const local = localDayHour(timeZone);
  const labels = DAYS.flatMap((day) => WINDOWS.map((window) => `${day} ${window}`));
  const cellOf = (p: TimedPost) => {
    const { day, hour } = local(p.publishedAt);
    return day * WINDOWS.length + Math.floor(hour / HOURS_PER_CELL);
  };
  const timed = posts.filter((p) => p.timeKnown);
  const result = analyse(labels, cellOf, timed, GRID_WORDS);
  const cells = result.slots.map((slot, i) => ({
    ...slot,
    day: Math.floor(i / WINDOWS.length),
    hour: (i % WINDOWS.length) * HOURS_PER_CELL,
  }));
  return {
    posts: result.posts,
    hoursPerCell: HOURS_PER_CELL,
    cells,
    best: result.best,
    worst: result.worst,
    note: result.note,
  };
}

import { mannWhitney, median } from '../../lib/rank-stats.ts';

/**
 * Best posting days and hours from the author's own history, said only where the data
 * supports it. Each slot (a weekday, or a 3-hour window) is tested against the author's other
 * posts with a Mann-Whitney test on engagement; a slot "stands out" when it has at least
 * MIN_SLOT_POSTS posts and p is under 0.05 divided by the number of slots tested (Bonferroni:
 * with 7 days tested at 0.05 each, one would look special by chance a third of the time).
 */

export const MIN_SLOT_POSTS = 5;
export const MIN_TIMING_POSTS = 20;
const ALPHA = 0.05;

export interface TimedPost {
  publishedAt: number;
  /** False for a bare date: it counts for days, not hours. */
  timeKnown: boolean;
  engagement: number;
}

export interface TimingSlot {
  slot: string;
  posts: number;
  multiple: number | null;
  pValue: number | null;
  standsOut: boolean;
}

export interface TimingInsight {
  posts: number;
  slots: TimingSlot[];
  best: string[];
  worst: string[];
  note: string;
}

/** How a note names what was analysed: "days", a "day", "a publish date"… */
export interface SlotWords {
  /** What was judged: "days". */
  what: string;
  /** What a post needs to count: "a publish date". */
  needs: string;
  /** One slot, after "no": "day". */
  slot: string;
  /** One slot, after "No … stands out": "day". */
  standsOut: string;
}

const DAY_WORDS: SlotWords = { what: 'days', needs: 'a publish date', slot: 'day', standsOut: 'day' };
const HOUR_WORDS: SlotWords = {
  what: 'hours',
  needs: 'a publish time',
  slot: 'window',
  standsOut: 'time of day',
};

export const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const WINDOWS = Array.from({ length: 8 }, (_, i) => {
  const pad = (h: number) => String(h).padStart(2, '0');
  return `${pad(i * 3)}:00-${pad(i * 3 + 3)}:00`;
});

/** Day of week (0 = Sunday) and hour in `timeZone` (IANA). */
export function localDayHour(timeZone: string): (ms: number) => { day: number; hour: number } {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    hour: 'numeric',
    hourCycle: 'h23',
  });
  const dayIndex: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
  return (ms) => {
    let day = 0;
    let hour = 0;
    for (const part of format.formatToParts(ms)) {
      if (part.type === 'weekday') day = dayIndex[part.value] ?? 0;
      else if (part.type === 'hour') hour = Number(part.value) % 24;
    }
    return { day, hour };
  };
}

const fmt = (x: number) => `${x.toFixed(x >= 10 ? 0 : 1)}x`;

export function analyse(
  labels: string[],
  slotOf: (p: TimedPost) => number,
  posts: TimedPost[],
  words: SlotWords,
): TimingInsight {
  const { what } = words;
  const authorMedian = median(posts.map((p) => p.engagement)) ?? 0;
  const groups = labels.map(() => [] as number[]);
  for (const p of posts) groups[slotOf(p)]!.push(p.engagement);
  const tested = groups.filter(
    (g) => g.length >= MIN_SLOT_POSTS && posts.length - g.length >= MIN_SLOT_POSTS,
  ).length;
  const slots: TimingSlot[] = groups.map((g, i) => {
    const enough = g.length >= MIN_SLOT_POSTS && posts.length - g.length >= MIN_SLOT_POSTS;
    const rest = groups.flatMap((other, j) => (j === i ? [] : other));
    const test = enough && posts.length >= MIN_TIMING_POSTS ? mannWhitney(g, rest) : null;
    return {
      slot: labels[i]!,
      posts: g.length,
      // Multiples of the author's median, on 1 + engagement so a median of 0 still divides.
      multiple:
        g.length >= MIN_SLOT_POSTS ? Number(((1 + median(g)!) / (1 + authorMedian)).toFixed(2)) : null,
      pValue: test ? Number(test.p.toFixed(4)) : null,
      standsOut: test !== null && test.p < ALPHA / Math.max(1, tested),
    };
  });
  const standing = slots.filter((s) => s.standsOut).sort((a, b) => (b.multiple ?? 0) - (a.multiple ?? 0));
  const best = standing.filter((s) => (s.multiple ?? 0) > 1).map((s) => s.slot);
  const worst = standing.filter((s) => (s.multiple ?? 0) < 1).map((s) => s.slot);
  let note: string;
  if (posts.length < MIN_TIMING_POSTS)
    note = `Not enough history to judge ${what}: ${posts.length} ${posts.length === 1 ? 'post' : 'posts'} with engagement and ${words.needs}; at least ${MIN_TIMING_POSTS} are needed.`;
  else if (tested === 0)
    note = `Your posts are too concentrated to compare ${what}: no ${words.slot} has ${MIN_SLOT_POSTS} posts with ${MIN_SLOT_POSTS} others to compare against.`;
  else if (standing.length === 0)
    note = `No ${words.standsOut} stands out: across ${posts.length} posts the differences are within what chance produces.`;
  else
    note = standing
      .map(
        (s) =>
          `${s.slot}: ${fmt(s.multiple ?? 0)} your median engagement over ${s.posts} posts (p${s.pValue !== null && s.pValue < 0.0001 ? '<0.0001' : `=${s.pValue}`}).`,
      )
      .join(' ');
  return { posts: posts.length, slots, best, worst, note };
}

/** Days from every dated post; hours only from posts whose time of day is known. */
export function timingInsights(
  posts: TimedPost[],
  timeZone: string,
): { days: TimingInsight; hours: TimingInsight } {
  const local = localDayHour(timeZone);
  const dayOf = (p: TimedPost) =>
    p.timeKnown ? local(p.publishedAt).day : new Date(p.publishedAt).getUTCDay();
  const days = analyse(DAYS, dayOf, posts, DAY_WORDS);
  const timed = posts.filter((p) => p.timeKnown);
  const hours = analyse(WINDOWS, (p) => Math.floor(local(p.publishedAt).hour / 3), timed, HOUR_WORDS);
  return { days, hours };
}

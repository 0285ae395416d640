import { formatWhen } from './time.ts';

/** What the sentence reads of a Series (the API's; spelled out so the node-side tests need no DOM types). */
interface Series {
  kind: 'recurring' | 'evergreen';
  status: 'active' | 'ended' | 'canceled';
  occurrences: number;
  count: number | null;
  until: number | null;
  minGapDays: number | null;
}

const posts = (n: number) => (n === 1 ? '1 post' : `${n} posts`);

/**
 * What starting a series did, in one sentence true of that series: all its posts when every one
 * exists already (a fixed series inside the planning horizon), how many of how many when a count
 * is still to come, and "more are added as the dates come closer" only for a series with no end.
 * `firstAt` is the first post's time; `when` writes a time (the browser's locale and zone).
 */
export function seriesSentence(series: Series, firstAt: number | null, when = formatWhen): string {
  const evergreen = series.kind === 'evergreen';
  const done = evergreen ? 'Queued' : 'Scheduled';
  const first = firstAt === null ? '' : `, the first for ${when(firstAt)}`;
  const apart =
    evergreen && series.minGapDays !== null
      ? `, at least ${series.minGapDays === 1 ? 'a day' : `${series.minGapDays} days`} apart`
      : '';
  const added = evergreen ? 'queued' : 'added';
  const n = series.occurrences;
  if (series.status === 'ended')
    return n === 1
      ? `${done} the series’ only post${first}.`
      : `${done} all ${n} posts of the series${first}${apart}.`;
  if (series.count !== null) {
    const rest = series.count - n;
    return `${done} ${n} of the series’ ${series.count} posts${first}; the other ${rest === 1 ? 'one is' : `${rest} are`} ${added} as ${rest === 1 ? 'its date comes' : 'their dates come'} closer${apart}.`;
  }
  if (series.until !== null)
    return `${done} ${posts(n)}${first}; the rest, up to ${when(series.until)}, are ${added} as their dates come closer${apart}.`;
  return `${done} ${posts(n)}${first}; more are ${added} as the dates come closer${apart}, with no end date.`;
}

import { eq } from 'drizzle-orm';
import type { Ctx } from '../../context.ts';
import { channelQueues } from '../../db/schema/index.ts';
import type { ErrorDetail } from '../../domain/errors.ts';
import { isoTime } from '../../lib/iso-time.ts';
import { canonicalZone } from '../../lib/zoned-time.ts';
import { accountZone } from '../account/settings.service.ts';
import type { Repeat } from './series.schemas.ts';

const MAX_SERIES_START_MS = 10 * 366 * 86_400_000;

/** How a create request says when: `runAt`, `queue: true`, and `repeat` on either. */
export interface Plan {
  runAt?: number;
  queue?: boolean;
  repeat?: Repeat;
}

/**
 * The problems of a request's timing fields, each at its field: `queue` needs a channel and
 * excludes `runAt`; a recurring series is `runAt` + `repeat.every`, an evergreen one
 * `queue: true` + `repeat.minGapDays`; `until` must come after the first occurrence.
 */
export function planProblems(plan: Plan, channelId: string | null, now: number, prefix = ''): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const at = (path: string, message: string) => problems.push({ path: `${prefix}${path}`, message });
  if (plan.queue) {
    if (plan.runAt !== undefined)
      at('runAt', 'Give either runAt or queue: true; a queued post takes its time from the queue');
    if (!channelId)
      at('channelId', "A queued post needs a channel: its time comes from that channel's queue");
  }
  const repeat = plan.repeat;
  if (!repeat) return problems;
  if (plan.runAt === undefined && !plan.queue) {
    at(
      'repeat',
      'A series needs runAt (recurring, with repeat.every) or queue: true (evergreen, with repeat.minGapDays)',
    );
    return problems;
  }
  if (plan.queue) {
    if (repeat.every)
      at(
        'repeat.every',
        'An evergreen series follows the queue; give minGapDays, or runAt for a recurring series',
      );
    if (repeat.minGapDays === undefined)
      at('repeat.minGapDays', 'An evergreen series needs the least number of days between two of its posts');
    if (repeat.timezone !== undefined)
      at('repeat.timezone', "An evergreen series follows the queue's own zone");
  } else {
    if (!repeat.every) at('repeat.every', 'A recurring series needs every: {unit: day, week or month, n}');
    if (repeat.minGapDays !== undefined)
      at(
        'repeat.minGapDays',
        'Only for an evergreen series (queue: true); a recurring one repeats every n units',
      );
  }
  if (repeat.timezone !== undefined && !canonicalZone(repeat.timezone))
    at('repeat.timezone', 'Not an IANA time zone (e.g. Europe/Paris)');
  const firstAt = plan.runAt ?? now;
  // Occurrence times are computed through Intl, whose calendar ends in the year 275760.
  if (firstAt > now + MAX_SERIES_START_MS)
    at('runAt', 'A series must start within 10 years; its first occurrence is too far ahead');
  if (repeat.until !== undefined && repeat.until <= firstAt)
    at('repeat.until', `Must be after the first occurrence (${isoTime(firstAt)})`);
  return problems;
}

/** The zone a series keeps: its own, else the channel queue's, else the account's (settings). */
export async function seriesZone(ctx: Ctx, repeat: Repeat, channelId: string | null): Promise<string> {
  if (repeat.timezone) return canonicalZone(repeat.timezone)!;
  const fallback = () => accountZone(ctx.deps.db, ctx.caller.accountId);
  if (!channelId) return fallback();
  const [queue] = await ctx.deps.db
    .select({ timezone: channelQueues.timezone })
    .from(channelQueues)
    .where(eq(channelQueues.channelId, channelId));
  return queue?.timezone ?? fallback();
}

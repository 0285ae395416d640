import { and, eq, inArray } from 'drizzle-orm';
import type { Call } from '../../context.ts';
import { channelQueues, channels, posts } from '../../db/schema/index.ts';
import { type ErrorDetail, Invalid } from '../../domain/errors.ts';
import { canonicalZone } from '../../lib/zoned-time.ts';
import { accountZone } from '../account/settings.service.ts';
import { requireOwned } from '../tenancy.ts';
import { SLOT_TAKING_STATES } from './queue-assign.ts';
import type { Queue, QueueSlot, QueueViewResult, SetQueueRequest } from './queues.schemas.ts';
import { nextSlotTimes } from './slot-times.ts';

const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
export const dayName = (isoDay: number) => DAY_NAMES[isoDay - 1]!;

/** The zone's canonical IANA name, or 400 naming the field. */
export function requireZone(timezone: string, path: string): string {
  const zone = canonicalZone(timezone);
  if (!zone)
    throw new Invalid(`Unknown time zone "${timezone}"; use an IANA name such as Europe/Paris.`, [
      { path, message: 'Not an IANA time zone' },
    ]);
  return zone;
}

const bySlotOrder = (a: QueueSlot, b: QueueSlot) => a.day - b.day || a.time.localeCompare(b.time);

/** The channel, or 404 for an unknown id or another account's. */
const ownChannel = (call: Call<{ channelId: string }>) =>
  requireOwned(call.ctx, channels, call.input.channelId, 'Channel');

/** PUT /v1/channels/{id}/queue: replaces the channel's slots and zone. */
export async function setQueue({
  ctx,
  input,
}: Call<{ channelId: string; queue: SetQueueRequest }>): Promise<Queue> {
  await ownChannel({ ctx, input });
  const timezone = requireZone(
    input.queue.timezone ?? (await accountZone(ctx.deps.db, ctx.caller.accountId)),
    'timezone',
  );
  const problems: ErrorDetail[] = [];
  const seen = new Map<string, number>();
  input.queue.slots.forEach((slot, i) => {
    const key = `${slot.day} ${slot.time}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else
      problems.push({
        path: `slots[${i}]`,
        message: `The same slot as slots[${first}] (${dayName(slot.day)} ${slot.time}); list each slot once`,
      });
  });
  if (problems.length > 0) throw new Invalid('The queue lists a slot twice: remove the repeats.', problems);
  const slots = [...input.queue.slots].sort(bySlotOrder);
  const now = ctx.deps.clock.now();
  await ctx.deps.db
    .insert(channelQueues)
    .values({
      channelId: input.channelId,
      accountId: ctx.caller.accountId,
      timezone,
      slots,
      createdAt: now,
      updatedAt: now,
    })
    // New slots invalidate the filled-until hint (queue-assign.ts).
    .onConflictDoUpdate({
      target: channelQueues.channelId,
      set: { timezone, slots, filledUntil: null, updatedAt: now },
    });
  return { timezone, slots };
}

/** The channel's queue, or an empty one (UTC, no slots) when none was set. */
export async function readQueue({ ctx, input }: Call<{ channelId: string }>) {
  await ownChannel({ ctx, input });
  const [row] = await ctx.deps.db
    .select()
    .from(channelQueues)
    .where(eq(channelQueues.channelId, input.channelId));
  return row ?? null;
}

/** GET /v1/channels/{id}/queue: the queue and its next `count` slot times, each with the post holding it. */
export async function getQueue({
  ctx,
  input,
}: Call<{ channelId: string; count: number }>): Promise<QueueViewResult> {
  const row = await readQueue({ ctx, input });
  const queue: Queue = row
    ? { timezone: row.timezone, slots: row.slots }
    : { timezone: await accountZone(ctx.deps.db, ctx.caller.accountId), slots: [] };
  const times = nextSlotTimes(queue, ctx.deps.clock.now() + 1, input.count);
  const holders =
    times.length === 0
      ? []
      : await ctx.deps.db
          .select({ id: posts.id, at: posts.scheduledFor })
          .from(posts)
          .where(
            and(
              eq(posts.channelId, input.channelId),
              inArray(posts.status, [...SLOT_TAKING_STATES]),
              inArray(posts.scheduledFor, times),
            ),
          );
  const holder = new Map(holders.map((h) => [h.at, h.id]));
  return { queue, upcoming: times.map((at) => ({ at, postId: holder.get(at) ?? null })) };
}

/** DELETE /v1/channels/{id}/queue: clears the slots. Posts already scheduled keep their times. */
export async function deleteQueue({
  ctx,
  input,
}: Call<{ channelId: string }>): Promise<{ deleted: boolean }> {
  await ownChannel({ ctx, input });
  const gone = await ctx.deps.db
    .delete(channelQueues)
    .where(eq(channelQueues.channelId, input.channelId))
    .returning({ id: channelQueues.channelId });
  return { deleted: gone.length > 0 };
}

import { and, eq, gte, inArray, lte } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { channelQueues, posts } from '../../db/schema/index.ts';
import { Conflict } from '../../domain/errors.ts';
import { slotTimes } from './slot-times.ts';

/**
 * A slot is taken by a post of the channel at that time that is scheduled, publishing or
 * published (docs/decisions.md): a canceled or failed post, or a draft, leaves it free.
 */
export const SLOT_TAKING_STATES = ['scheduled', 'publishing', 'published'] as const;

export type QueueRow = typeof channelQueues.$inferSelect;

/** Candidate slots checked per read of the channel's posts. */
const CHUNK = 64;

export const queueEmpty = (channelId: string) =>
  new Conflict(
    'queue_empty',
    `Channel ${channelId} has no queue slots; set some with PUT /v1/channels/${channelId}/queue or give the post a runAt.`,
  );

/**
 * Locks the channel's queue row for the rest of the transaction: every assignment of the
 * channel takes this lock first, so concurrent requests (in any process) take turns and never
 * hand out the same slot. 409 queue_empty when the channel has no slots.
 */
export async function lockQueue(tx: DbOrTx, channelId: string): Promise<QueueRow> {
  const [queue] = await tx
    .select()
    .from(channelQueues)
    .where(eq(channelQueues.channelId, channelId))
    .for('update');
  if (!queue || queue.slots.length === 0) throw queueEmpty(channelId);
  return queue;
}

/** The channel queue's zone; 409 queue_empty when it has no slots (an evergreen series needs them). */
export async function queueZone(db: DbOrTx, channelId: string): Promise<string> {
  const [queue] = await db.select().from(channelQueues).where(eq(channelQueues.channelId, channelId));
  if (!queue || queue.slots.length === 0) throw queueEmpty(channelId);
  return queue.timezone;
}

/** The channel's queue row, read without a lock; null when it has none or no slots. */
export async function queueWithSlots(db: DbOrTx, channelId: string): Promise<QueueRow | null> {
  const [queue] = await db.select().from(channelQueues).where(eq(channelQueues.channelId, channelId));
  return queue && queue.slots.length > 0 ? queue : null;
}

/** Which of these channels have a queue with at least one slot. */
export async function channelsWithSlots(db: DbOrTx, channelIds: string[]): Promise<Set<string>> {
  if (channelIds.length === 0) return new Set();
  const rows = await db
    .select({ channelId: channelQueues.channelId, slots: channelQueues.slots })
    .from(channelQueues)
    .where(inArray(channelQueues.channelId, channelIds));
  return new Set(rows.filter((r) => r.slots.length > 0).map((r) => r.channelId));
}

/** Which of `times` hold a slot-taking post of the channel. */
async function takenAmong(tx: DbOrTx, channelId: string, times: number[]): Promise<Set<number>> {
  const rows = await tx
    .selectDistinct({ at: posts.scheduledFor })
    .from(posts)
    .where(
      and(
        eq(posts.channelId, channelId),
        inArray(posts.status, [...SLOT_TAKING_STATES]),
        gte(posts.scheduledFor, times[0]!),
        lte(posts.scheduledFor, times[times.length - 1]!),
      ),
    );
  return new Set(rows.map((r) => r.at!));
}

/**
 * The channel's next `count` free slots after `now`, read without a lock and without moving the
 * filled-until hint: a suggestion (POST /v1/plan), not an assignment. A slot it names can be
 * taken before the writer uses it; scheduling then goes through createPost as any other.
 */
export async function freeSlots(db: DbOrTx, queue: QueueRow, now: number, count: number): Promise<number[]> {
  const out: number[] = [];
  if (queue.slots.length === 0 || count <= 0) return out;
  // Every slot up to the hint is known taken.
  const start = Math.max(now + 1, queue.filledUntil === null ? 0 : queue.filledUntil + 1);
  const walk = slotTimes(queue, start);
  while (out.length < count) {
    const chunk: number[] = [];
    while (chunk.length < CHUNK) chunk.push(walk.next().value as number);
    const taken = await takenAmong(db, queue.channelId, chunk);
    for (const at of chunk) if (!taken.has(at) && out.length < count) out.push(at);
  }
  return out;
}

export interface SlotOptions {
  /** No slot before this instant (evergreen: the previous occurrence plus its gap). */
  notBefore?: number;
  /** Instants of posts with the same text: no slot within `gapMs` of any of them. */
  avoid?: number[];
  gapMs?: number;
}

/**
 * The channel's first free slot after `now` (and not before `notBefore`, nor within `gapMs` of
 * an `avoid` instant), inside a transaction holding `lockQueue`'s lock. Updates the queue's
 * filled-until hint when every slot from `now` to the one found was taken, so the next
 * assignment starts after it rather than walking the whole queue again.
 */
export async function nextFreeSlot(
  tx: DbOrTx,
  queue: QueueRow,
  now: number,
  options: SlotOptions = {},
): Promise<number> {
  const from = Math.max(now + 1, options.notBefore ?? 0);
  const hint = queue.filledUntil;
  // Every slot from before `now` up to the hint is known taken: start after it when it covers `from`.
  const covered = hint !== null && hint >= from - 1;
  const start = covered ? hint + 1 : from;
  let contiguous = covered || from === now + 1;
  const gap = options.gapMs ?? 0;
  const tooClose = (at: number) => (options.avoid ?? []).some((t) => Math.abs(t - at) < gap);
  const walk = slotTimes(queue, start);
  for (;;) {
    // next() by hand: breaking out of a for-of would close the generator after the first chunk.
    const chunk: number[] = [];
    while (chunk.length < CHUNK) chunk.push(walk.next().value as number);
    const taken = await takenAmong(tx, queue.channelId, chunk);
    for (const at of chunk) {
      if (taken.has(at)) continue;
      // A free slot passed over for the gap: the slots up to the one found are not all taken.
      if (tooClose(at)) {
        contiguous = false;
        continue;
      }
      if (contiguous)
        await tx
          .update(channelQueues)
          .set({ filledUntil: at })
          .where(eq(channelQueues.channelId, queue.channelId));
      return at;
    }
  }
}

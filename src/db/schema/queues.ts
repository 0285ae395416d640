import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { accounts, ms } from './accounts.ts';
import { channels } from './channels.ts';
import { brands } from './memory.ts';

/** A weekly slot of a channel's queue: ISO weekday (Monday = 1) and local wall time "HH:MM". */
export interface QueueSlotValue {
  day: number;
  time: string;
}

/**
 * A channel's posting queue: weekly wall-clock slots in one IANA zone. The row is also the
 * lock every queue assignment of the channel takes (SELECT ... FOR UPDATE), so two processes
 * never hand out the same slot.
 */
export const channelQueues = pgTable('channel_queues', {
  channelId: text('channel_id')
    .primaryKey()
    .references(() => channels.id, { onDelete: 'cascade' }),
  accountId: text('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  timezone: text('timezone').notNull(),
  slots: jsonb('slots').$type<QueueSlotValue[]>().notNull(),
  /**
   * A hint that spares assignment re-walking a full queue: every slot from before the last
   * assignment up to this instant was taken then. A trigger on posts (migration
   * queue_slot_freed) lowers it whenever a post leaves a slot, so it never hides a free one.
   */
  filledUntil: ms('filled_until'),
  createdAt: ms('created_at').notNull(),
  updatedAt: ms('updated_at').notNull(),
});

/**
 * A recurring (every n days/weeks/months) or evergreen (re-queued with a minimum gap) series.
 * Its occurrences are ordinary posts carrying `series_id` and `series_index`; the series keeps
 * the template and how far occurrences have been created (`next_index`, `next_at`).
 */
export const series = pgTable(
  'series',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    channelId: text('channel_id').references(() => channels.id, { onDelete: 'set null' }),
    brandId: text('brand_id').references(() => brands.id, { onDelete: 'set null' }),
    platform: text('platform').notNull(),
    text: text('text').notNull(),
    mediaIds: jsonb('media_ids').$type<string[]>().notNull().default([]),
    thread: jsonb('thread').$type<string[]>().notNull().default([]),
    firstComment: text('first_comment'),
    /** day | week | month for a recurring series; null for evergreen. */
    unit: text('unit'),
    every: integer('every'),
    timezone: text('timezone').notNull(),
    /** The first occurrence's time (recurring) or the series' creation (evergreen). */
    startAt: ms('start_at').notNull(),
    until: ms('until'),
    count: integer('count'),
    /** Evergreen: the least number of days between two occurrences. */
    minGapDays: integer('min_gap_days'),
    /** active | ended | canceled */
    status: text('status').notNull(),
    /** The index the next occurrence will carry (0-based): occurrences created so far. */
    nextIndex: integer('next_index').notNull().default(0),
    /** When the next occurrence is due to be created for (recurring), or its earliest time (evergreen). */
    nextAt: ms('next_at'),
    /** The series sweep's claim (jobs kit claimBatch): the claiming run's token, and when it lapses. */
    claimedBy: text('claimed_by'),
    leaseUntil: ms('lease_until'),
    createdAt: ms('created_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [
    index('series_account_idx').on(t.accountId, t.createdAt),
    index('series_due_idx').on(t.status, t.nextAt),
  ],
);

import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts, ms } from './accounts.ts';

/**
 * Posts an author imported with their results (POST /v1/history). Posts published through
 * Postkit are not copied here: they join the history at read time from `posts` and their
 * latest metric snapshot (docs/decisions.md, "History: imported rows plus a read-time view").
 */
export const historyPosts = pgTable(
  'history_posts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** md5 of the text with whitespace runs collapsed: "the same text" for re-imports. */
    textHash: text('text_hash').notNull(),
    text: text('text').notNull(),
    platform: text('platform').notNull(),
    publishedAt: ms('published_at'),
    /** False when only the date was given (the hour is unknown; timing insights skip it). */
    publishedTimeKnown: boolean('published_time_known').notNull().default(false),
    /** A MediaKind, or null when unknown. */
    media: text('media'),
    /** null = not given (not the same as 0). */
    reactions: integer('reactions'),
    comments: integer('comments'),
    shares: integer('shares'),
    impressions: integer('impressions'),
    clicks: integer('clicks'),
    createdAt: ms('created_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('history_posts_text_uq').on(t.accountId, t.textHash),
    index('history_posts_account_idx').on(t.accountId, t.createdAt),
  ],
);

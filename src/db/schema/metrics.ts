import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ms } from './accounts.ts';
import { posts } from './posts.ts';

export const metricSnapshots = pgTable(
  'metric_snapshots',
  {
    id: text('id').primaryKey(),
    postId: text('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    /** null = the platform did not report this dimension (not the same as 0). */
    impressions: integer('impressions'),
    likes: integer('likes'),
    comments: integer('comments'),
    shares: integer('shares'),
    clicks: integer('clicks'),
    fetchedAt: ms('fetched_at').notNull(),
  },
  (t) => [
    index('metric_snapshots_post_idx').on(t.postId, t.fetchedAt),
    // The retention sweep looks for snapshots older than the retention window.
    index('metric_snapshots_fetched_idx').on(t.fetchedAt),
  ],
);

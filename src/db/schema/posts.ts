import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts, ms } from './accounts.ts';
import { channels } from './channels.ts';
import { brands } from './memory.ts';

/**
 * One composition sent to several channels (POST /v1/post-groups): each variant is its own post
 * carrying the group's id, so each publishes, fails or is canceled on its own.
 */
export const postGroups = pgTable(
  'post_groups',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Its posts in the order of the variants, as created (a deleted post is skipped on read). */
    postIds: jsonb('post_ids').$type<string[]>().notNull(),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [index('post_groups_account_idx').on(t.accountId, t.createdAt)],
);

export const posts = pgTable(
  'posts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    brandId: text('brand_id').references(() => brands.id, { onDelete: 'set null' }),
    channelId: text('channel_id').references(() => channels.id, { onDelete: 'set null' }),
    platform: text('platform').notNull(),
    /** draft | scheduled | publishing | published | failed | canceled */
    status: text('status').notNull(),
    text: text('text').notNull(),
    mediaIds: jsonb('media_ids').$type<string[]>().notNull().default([]),
    scheduledFor: ms('scheduled_for'),
    publishedAt: ms('published_at'),
    platformPostId: text('platform_post_id'),
    platformUrl: text('platform_url'),
    /** Follow-up parts (platformB threads), each published as a reply to the part before it. */
    thread: jsonb('thread').$type<string[]>().notNull().default([]),
    /** Published right after the post (platformA: a comment; platformB: a reply to the last part). */
    firstComment: text('first_comment'),
    /**
     * The platform ids of the published thread parts, in order (part 1's id is platformPostId).
     * Each is written before the next part is sent: the publish resumes after the last one here.
     */
    threadPostIds: jsonb('thread_post_ids').$type<string[]>().notNull().default([]),
    firstCommentId: text('first_comment_id'),
    error: text('error'),
    /** Publishing bookkeeping (never returned): who claimed the post and when. */
    claimedAt: ms('claimed_at'),
    claimedBy: text('claimed_by'),
    /**
     * Set just before a create call leaves: from then on that create is never re-sent blindly.
     * With several parts it is the create of the first part not recorded yet (cleared when that
     * part's id is written).
     */
    createSentAt: ms('create_sent_at'),
    publishAttempts: integer('publish_attempts').notNull().default(0),
    /** When a transient failure before the create was sent may be retried. */
    retryAt: ms('retry_at'),
    /** Least-recently-polled first for the metrics sweep. */
    metricsPolledAt: ms('metrics_polled_at'),
    /** The recurring or evergreen series this post is an occurrence of (queues.ts), and which one. */
    seriesId: text('series_id'),
    seriesIndex: integer('series_index'),
    /** The post group (several channels composed at once) this post is the variant of. */
    groupId: text('group_id').references(() => postGroups.id, { onDelete: 'set null' }),
    /**
     * The post's review (src/features/approvals): null until it is submitted, then pending |
     * approved | changes_requested. A post pending or sent back never falls due (transitions.ts).
     */
    approvalState: text('approval_state'),
    approvalRequestedBy: text('approval_requested_by'),
    approvalRequestedAt: ms('approval_requested_at'),
    /** The time the submitter asked for: approving schedules the post then. */
    approvalRunAt: ms('approval_run_at'),
    approvalDecidedBy: text('approval_decided_by'),
    approvalDecidedAt: ms('approval_decided_at'),
    approvalNote: text('approval_note'),
    createdAt: ms('created_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  // Every status change of a publish (the claim, the outcome) writes a new row version and an
  // entry in each index that covers it, so indexes only the posts their readers look for: the
  // due index holds posts waiting or publishing, the metrics index published ones, the series
  // index series occurrences. A burst's claim then writes 4 index entries, not 6, and so does
  // its outcome (docs/performance-notes.md, "bench/publish").
  (t) => [
    index('posts_account_idx').on(t.accountId, t.createdAt),
    // Each occurrence of a series exists once, whichever process creates it.
    uniqueIndex('posts_series_occurrence_uq')
      .on(t.seriesId, t.seriesIndex)
      .where(sql`${t.seriesId} is not null`),
    // Queue assignment reads a channel's live posts by time.
    index('posts_channel_time_idx').on(t.channelId, t.scheduledFor),
    // The publish sweep: due posts, retries, lapsed claims (claims.ts).
    index('posts_due_idx')
      .on(t.status, t.scheduledFor)
      .where(sql`${t.status} in ('scheduled', 'publishing')`),
    // The metrics sweep: published posts, least recently polled first (metrics.sweep.ts).
    index('posts_metrics_idx').on(t.metricsPolledAt).where(sql`${t.status} = 'published'`),
    // A group's posts (GET /v1/post-groups/{id}, ?groupId=): only grouped posts are indexed.
    index('posts_group_idx').on(t.groupId).where(sql`${t.groupId} is not null`),
  ],
);

export const postScores = pgTable(
  'post_scores',
  {
    id: text('id').primaryKey(),
    postId: text('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    score: integer('score').notNull(),
    verdict: text('verdict'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [index('post_scores_post_idx').on(t.postId, t.createdAt)],
);

/**
 * Notes members leave on a post for each other (a lead's "shorten the hook"), oldest first.
 * `member_id` keeps the author's id after the member is removed, so the thread still reads.
 */
export const postComments = pgTable(
  'post_comments',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    postId: text('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    memberId: text('member_id').notNull(),
    text: text('text').notNull(),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [index('post_comments_post_idx').on(t.postId, t.createdAt)],
);

import { z } from 'zod';
import { IdParams } from '../../api/schemas.ts';
import { AnalyticsQuery } from '../../features/metrics/metrics.schemas.ts';
import { getMetricsHistory } from '../../features/metrics/metrics.service.ts';
import {
  MetricsHistoryQuery,
  MetricsHistoryResult,
  TrendsResult,
} from '../../features/metrics/trends.schemas.ts';
import { getTrends } from '../../features/metrics/trends.service.ts';
import { BulkDryRunResult } from '../../features/posts/bulk.schemas.ts';
import { bulkScheduleCsv, dryRunBulkCsv } from '../../features/posts/bulk.service.ts';
import { MAX_CSV_ROWS } from '../../features/posts/bulk-csv.ts';
import { PostListResult } from '../../features/posts/posts.schemas.ts';
import { partOf } from '../../lib/part-of.ts';
import { defineTool, plural, publishes, readOnly } from '../tool.ts';

/** The CSV file's text, as POST /v1/posts/bulk-schedule takes it with Content-Type text/csv. */
const CsvInput = z
  .object({
    csv: z
      .string()
      .min(1)
      .max(16 * 1024 * 1024)
      .describe(
        `The CSV text: a header row naming text, runAt (epoch ms or ISO 8601 with its offset), channel (a channel's name as list_channels gives its handle, e.g. @sandy, with its platform in brackets when two share it, or its id), and optionally platform, firstComment, mediaIds (space separated), thread (a JSON list), brandId, queue; then up to ${MAX_CSV_ROWS} rows`,
      ),
  })
  .strict();

const COLUMNS_NOTE =
  'Rows are numbered as a spreadsheet shows them (the header is row 1) and problems are named `row N.<column>`.';

/** Bulk scheduling from CSV and metrics over time: the verbs behind the same REST routes. */
export const bulkTools = [
  defineTool({
    name: 'check_bulk_csv',
    title: 'Check a CSV of posts (dry run)',
    description: `Checks a CSV of posts to schedule without writing anything: answers every row with its problems (another account's channel, a time in the past, text too long for the platform, unknown media) and, for a good row, its offline score (0-100). ${COLUMNS_NOTE} Use it before bulk_schedule_csv and fix what it lists. Read-only and free.`,
    input: CsvInput,
    output: BulkDryRunResult,
    annotations: readOnly,
    scope: 'write',
    run: (ctx, input) => dryRunBulkCsv({ ctx, input }),
    summarize: ({ valid, rows }) => {
      const bad = rows.filter((r) => !r.ok);
      return valid
        ? `${partOf(rows.length, rows.length, 'row').subject} can be scheduled.`
        : `${partOf(bad.length, rows.length, 'row').subject} cannot be scheduled:${bad
            .slice(0, 10)
            .map((r) => `\n- row ${r.row}: ${r.errors.map((e) => e.message).join('; ')}`)
            .join('')}`;
    },
  }),
  defineTool({
    name: 'bulk_schedule_csv',
    title: 'Schedule posts from a CSV',
    description: `Schedules every row of a CSV as its own post, all or nothing: any bad row fails the whole file (invalid_request, each problem at \`row N.<column>\`) and nothing is created. ${COLUMNS_NOTE} Each post then goes out publicly on its channel's social account at its runAt (or queue slot), exactly once, where everyone can see it: confirm the file with the person first. Run check_bulk_csv first. No model quota. Pass an idempotencyKey when you might retry, so a retry cannot schedule the file twice.`,
    input: CsvInput,
    output: PostListResult,
    // Open world: at each runAt a post goes out publicly on its channel's platform.
    annotations: publishes(false, false),
    scope: 'publish',
    idempotentAs: { method: 'POST', url: '/v1/posts/bulk-schedule', status: 201 },
    run: async (ctx, input) => {
      const posts = await bulkScheduleCsv({ ctx, input });
      return { posts, pagination: { limit: posts.length, offset: 0, hasMore: false } };
    },
    summarize: ({ posts }) =>
      `Scheduled ${plural(posts.length, 'post')}: ${posts
        .slice(0, 10)
        .map((p) => p.id)
        .join(', ')}${posts.length > 10 ? ', …' : ''}.`,
  }),
  defineTool({
    name: 'get_metrics_history',
    title: 'A post’s metrics over time',
    description:
      "Reads a published post's metric snapshots oldest first (one per refresh), each with its engagements and time since publishing, to see how fast it gathered engagement. Pages of `limit` (default 1000); `hasMore` says to ask again from the last fetchedAt + 1. Read-only and free.",
    input: z
      .object({ id: IdParams.shape.id.describe('The post id (pst_…)') })
      .extend(MetricsHistoryQuery.shape)
      .strict(),
    output: MetricsHistoryResult,
    annotations: readOnly,
    scope: 'read',
    run: (ctx, input) => getMetricsHistory({ ctx, input }),
    summarize: ({ postId, snapshots, hasMore }) =>
      `${plural(snapshots.length, 'snapshot')} of ${postId}${snapshots.length ? `; the last has ${plural(snapshots.at(-1)!.engagements, 'engagement')}` : ''}${hasMore ? '; more follow' : ''}.`,
  }),
  defineTool({
    name: 'get_analytics_trends',
    title: 'Content decay and posting frequency',
    description:
      'For posts published in an optional window (`from` inclusive, `to` exclusive, epoch ms): how much of their engagement posts reach 1 h, 24 h and 7 d after publishing (median share), and per week (Monday, UTC) how many posts went out beside the engagements they earned. Use it to decide how often to post and how long a post keeps working. Read-only and free.',
    input: AnalyticsQuery.strict(),
    output: TrendsResult,
    annotations: readOnly,
    scope: 'read',
    run: async (ctx, input) => ({ trends: await getTrends({ ctx, input }) }),
    summarize: ({ trends }) =>
      `Decay: ${trends.decay
        .map(
          (d) =>
            `${d.after} ${d.share === null ? 'no data' : `${Math.round(d.share * 100)}% (${plural(d.posts, 'post')})`}`,
        )
        .join(', ')}. ${plural(trends.weekly.length, 'week')} of posting.`,
  }),
];

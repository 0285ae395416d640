import { z } from 'zod';
import { IdParams } from '../../api/schemas.ts';

const Counter = z.number().int().nullable();

export const MetricSnapshot = z
  .object({
    id: z.string(),
    postId: z.string(),
    impressions: Counter.describe('null: the platform did not report this dimension (not the same as 0)'),
    likes: Counter,
    comments: Counter,
    shares: Counter,
    clicks: Counter,
    fetchedAt: z.number().int(),
  })
  .meta({ id: 'MetricSnapshot' });
export type MetricSnapshot = z.output<typeof MetricSnapshot>;

export const PostMetricsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .describe('Most recent snapshots to include in `history`, 1-1000'),
});

export const PostMetricsResult = z
  .object({
    latest: MetricSnapshot.nullable().describe('The most recent snapshot; null if never polled'),
    history: z.array(MetricSnapshot).describe('Newest first'),
  })
  .meta({ id: 'PostMetricsResult' });

export const MetricRefreshResult = z.object({ snapshot: MetricSnapshot }).meta({ id: 'MetricRefreshResult' });

export const MetricTotals = z
  .object({
    posts: z.number().int().describe('Posts with at least one snapshot'),
    impressions: z.number().int(),
    likes: z.number().int(),
    comments: z.number().int(),
    shares: z.number().int(),
    clicks: z.number().int(),
    engagements: z.number().int().describe('likes + comments + shares + clicks'),
  })
  .meta({ id: 'MetricTotals' });
export type MetricTotals = z.output<typeof MetricTotals>;

export const MetricCoverage = z
  .object({
    impressions: z.number().int(),
    likes: z.number().int(),
    comments: z.number().int(),
    shares: z.number().int(),
    clicks: z.number().int(),
  })
  .describe(
    'Per dimension, how many of the counted posts had it reported by the platform; a total of 0 over 0 reporting posts means "no data", not "zero"',
  )
  .meta({ id: 'MetricCoverage' });
export type MetricCoverage = z.output<typeof MetricCoverage>;

export const PlatformTotals = z
  .object({ platform: z.string(), totals: MetricTotals, reported: MetricCoverage })
  .meta({ id: 'PlatformTotals' });

export const Analytics = z
  .object({
    from: z.number().int().nullable().describe('Window start on publishedAt (inclusive), as requested'),
    to: z.number().int().nullable().describe('Window end on publishedAt (exclusive), as requested'),
    totals: MetricTotals,
    reported: MetricCoverage,
    platforms: z.array(PlatformTotals).describe('One entry per platform with at least one counted post'),
  })
  .meta({ id: 'Analytics' });
export type Analytics = z.output<typeof Analytics>;

export const AnalyticsQuery = z.object({
  from: z.coerce.number().int().min(0).optional().describe('Epoch ms, inclusive, on publishedAt'),
  to: z.coerce.number().int().min(0).optional().describe('Epoch ms, exclusive, on publishedAt'),
});

export const AnalyticsResult = z.object({ analytics: Analytics }).meta({ id: 'AnalyticsResult' });

export const CalibrationRow = z
  .object({
    postId: z.string(),
    platform: z.string(),
    score: z.number().int().describe('Latest recorded score (rounded overall)'),
    verdict: z.string().nullable(),
    publishedAt: z.number().int().nullable(),
    impressions: Counter,
    likes: Counter,
    comments: Counter,
    shares: Counter,
    clicks: Counter,
    engagements: z.number().int().describe('likes + comments + shares + clicks, nulls counted as 0'),
  })
  .meta({ id: 'CalibrationRow' });
export type CalibrationRow = z.output<typeof CalibrationRow>;

export const CalibrationSummary = z
  .object({
    posts: z.number().int().describe('Posts in the calibration set'),
    spearman: z
      .number()
      .nullable()
      .describe(
        'Rank correlation of score with engagements over these posts; null under 3 posts or when either is constant',
      ),
    pairwiseAccuracy: z
      .number()
      .nullable()
      .describe(
        'Of the post pairs whose engagements differ 2x or more (on 1 + engagements), the share the score ranks the right way (a score tie counts half); null without such pairs',
      ),
  })
  .describe("How well the score has predicted this account's own results")
  .meta({ id: 'CalibrationSummary' });
export type CalibrationSummary = z.output<typeof CalibrationSummary>;

export const CalibrationResult = z
  .object({ calibration: z.array(CalibrationRow), summary: CalibrationSummary })
  .meta({ id: 'CalibrationResult' });

export const PostIdParams = IdParams;

import { z } from 'zod';
import { MetricSnapshot } from './metrics.schemas.ts';

export const DecayMilestone = z
  .object({
    after: z.enum(['1h', '24h', '7d']).describe('Time after publishing'),
    afterMs: z.number().int(),
    posts: z
      .number()
      .int()
      .describe('Posts measured at least this long after publishing, with engagement above 0'),
    share: z
      .number()
      .nullable()
      .describe(
        'Median over those posts of the share (0-1) of the engagement measured so far that the post had reached by then; null without such posts',
      ),
  })
  .meta({ id: 'DecayMilestone' });
export type DecayMilestone = z.output<typeof DecayMilestone>;

export const WeekOfPosting = z
  .object({
    weekStart: z.number().int().describe('Monday 00:00 UTC, epoch ms'),
    posts: z.number().int().describe('Posts published that week'),
    measured: z.number().int().describe('Of those, posts with at least one metric snapshot'),
    engagements: z.number().int().describe('Their engagements (latest snapshot each)'),
    engagementsPerPost: z.number().nullable().describe('engagements / measured; null when none is measured'),
  })
  .meta({ id: 'WeekOfPosting' });
export type WeekOfPosting = z.output<typeof WeekOfPosting>;

export const Trends = z
  .object({
    from: z.number().int().nullable().describe('Window start on publishedAt (inclusive), as requested'),
    to: z.number().int().nullable().describe('Window end on publishedAt (exclusive), as requested'),
    decay: z.array(DecayMilestone).describe('Content decay at 1 h, 24 h and 7 d after publishing'),
    weekly: z
      .array(WeekOfPosting)
      .describe('Consecutive weeks from the first to the last with a post (at most 260), quiet weeks as 0'),
  })
  .meta({ id: 'Trends' });
export type Trends = z.output<typeof Trends>;
export const TrendsResult = z.object({ trends: Trends }).meta({ id: 'TrendsResult' });

export const MetricsHistoryQuery = z.object({
  from: z.coerce.number().int().min(0).optional().describe('Epoch ms, inclusive, on fetchedAt'),
  to: z.coerce.number().int().min(0).optional().describe('Epoch ms, exclusive, on fetchedAt'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(1000)
    .describe('Snapshots to answer, 1-1000, oldest first from `from`'),
});

export const MetricPoint = MetricSnapshot.extend({
  engagements: z.number().int().describe('likes + comments + shares + clicks, nulls counted as 0'),
  sincePublishMs: z.number().int().nullable().describe('fetchedAt - the post’s publishedAt'),
}).meta({ id: 'MetricPoint' });

export const MetricsHistoryResult = z
  .object({
    postId: z.string(),
    publishedAt: z.number().int().nullable(),
    snapshots: z
      .array(MetricPoint)
      .describe('Oldest first: one per refresh, as kept by the retention window'),
    hasMore: z.boolean().describe('More snapshots follow: ask again with `from` = the last fetchedAt + 1'),
  })
  .meta({ id: 'MetricsHistoryResult' });
export type MetricsHistoryResult = z.output<typeof MetricsHistoryResult>;

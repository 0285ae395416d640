import { errorResponses, IdParams } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { getAnalytics } from './analytics.service.ts';
import { getCalibrationReport } from './calibration-summary.ts';
import {
  AnalyticsQuery,
  AnalyticsResult,
  CalibrationResult,
  MetricRefreshResult,
  PostMetricsQuery,
  PostMetricsResult,
} from './metrics.schemas.ts';
import { getMetricsHistory, getPostMetrics, refreshPostMetrics } from './metrics.service.ts';
import { MetricsHistoryQuery, MetricsHistoryResult, TrendsResult } from './trends.schemas.ts';
import { getTrends } from './trends.service.ts';

const tags = ['metrics'];

export const metricsRoutes: FeatureRoutes = async (app) => {
  app.get(
    '/v1/posts/:id/metrics',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Get a post’s metrics',
        description:
          '`latest` and `history` (newest first). Counters are null where the platform does not report a dimension, which differs from a reported 0.',
        params: IdParams,
        querystring: PostMetricsQuery,
        response: { 200: PostMetricsResult, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) =>
      getPostMetrics({ ctx: request.ctx, input: { id: request.params.id, limit: request.query.limit } }),
  );

  app.get(
    '/v1/posts/:id/metrics/history',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'A post’s metrics over time',
        description:
          'Every kept snapshot of the post, oldest first (one per refresh, by the sweep or on demand), each with its engagements and its time since publishing; `from`/`to` narrow it on fetchedAt. Snapshots older than the retention window (METRICS_SNAPSHOT_RETENTION_DAYS) are pruned, except the latest and those around 1 h, 24 h and 7 d after publishing.',
        params: IdParams,
        querystring: MetricsHistoryQuery,
        response: { 200: MetricsHistoryResult, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) =>
      getMetricsHistory({ ctx: request.ctx, input: { id: request.params.id, ...request.query } }),
  );

  app.post(
    '/v1/posts/:id/metrics/refresh',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Refresh a post’s metrics',
        description:
          'Polls the platform now and appends a snapshot. 409 `not_published` for a post not on the platform, 409 `channel_revoked` (or `channel_expired`, `channel_error`) when its channel cannot be used, 502 `platform_error`, 503 when the platform is not configured.',
        params: IdParams,
        response: { 200: MetricRefreshResult, ...errorResponses(400, 401, 404, 409, 429, 502, 503) },
      },
    },
    async (request) => ({ snapshot: await refreshPostMetrics({ ctx: request.ctx, input: request.params }) }),
  );

  app.get(
    '/v1/analytics',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Account analytics',
        description:
          'Totals and a per-platform breakdown over posts published in [`from`, `to`) with at least one snapshot, each counted by its latest snapshot.',
        querystring: AnalyticsQuery,
        response: { 200: AnalyticsResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => ({ analytics: await getAnalytics({ ctx: request.ctx, input: request.query }) }),
  );

  app.get(
    '/v1/analytics/trends',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Content decay and posting frequency',
        description:
          'Over posts published in [`from`, `to`): `decay`, the median share of a post’s engagement (measured so far) reached 1 h, 24 h and 7 d after publishing, read from its snapshots; and `weekly`, posts per week (Monday, UTC) beside the engagements they earned, to see whether posting more often pays.',
        querystring: AnalyticsQuery,
        response: { 200: TrendsResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => ({ trends: await getTrends({ ctx: request.ctx, input: request.query }) }),
  );

  app.get(
    '/v1/calibration',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Calibration dataset',
        description:
          'Posts with both a recorded score and a metric snapshot: the latest score beside the latest counters, most recently published first; `summary` says how well the score has ranked these posts by engagement (Spearman, pairwise accuracy).',
        response: { 200: CalibrationResult, ...errorResponses(401, 429) },
      },
    },
    async (request) => getCalibrationReport({ ctx: request.ctx, input: undefined }),
  );
};

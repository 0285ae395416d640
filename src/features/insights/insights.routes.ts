import { errorResponses } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { InsightsQuery, InsightsResult } from './insights.schemas.ts';
import { getInsights } from './insights.service.ts';

export const insightsRoutes: FeatureRoutes = async (app) => {
  app.get(
    '/v1/insights',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['history'],
        summary: 'What works for this author',
        description:
          'Computed from the author’s own history (GET /v1/history) only. Best and worst posting days and 3-hour windows are named only where the data supports them (at least 5 posts in the slot, Mann-Whitney p under 0.05 divided by the slots tested); each part’s `note` says so when it does not.',
        querystring: InsightsQuery,
        response: { 200: InsightsResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => getInsights({ ctx: request.ctx, input: request.query }),
  );
};

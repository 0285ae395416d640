import { errorResponses, IdParams } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { CancelSeriesResult, SeriesListQuery, SeriesListResult, SeriesResult } from './series.schemas.ts';
import { cancelSeries, getSeries, listSeries } from './series.service.ts';

const tags = ['series'];

export const seriesRoutes: FeatureRoutes = async (app) => {
  app.get(
    '/v1/series',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'List series',
        description:
          'Recurring and evergreen series, newest first. A series starts with POST /v1/posts and `repeat`; its occurrences are posts: GET /v1/posts?seriesId=.',
        querystring: SeriesListQuery,
        response: { 200: SeriesListResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => listSeries({ ctx: request.ctx, input: request.query }),
  );

  app.get(
    '/v1/series/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Get a series',
        params: IdParams,
        response: { 200: SeriesResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => ({ series: await getSeries({ ctx: request.ctx, input: request.params }) }),
  );

  app.delete(
    '/v1/series/:id',
    {
      config: { scope: 'publish' },
      schema: {
        tags,
        summary: 'Cancel a series',
        description:
          'No further occurrences are created, and every occurrence not yet sent to the platform is canceled (`canceled` lists them). Published occurrences stay. Repeating the call changes nothing more.',
        params: IdParams,
        response: { 200: CancelSeriesResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => cancelSeries({ ctx: request.ctx, input: request.params }),
  );
};

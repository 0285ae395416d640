import { z } from 'zod';
import { errorResponses, IdParams } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { ScoreResult } from '../intelligence/intelligence.schemas.ts';
import { PostScore, PostScoreListResult } from './posts.schemas.ts';
import { listPostScores, scoreStoredPost } from './scores.service.ts';

const tags = ['posts'];

export const StoredScoreResult = z
  .object({ score: PostScore, result: ScoreResult })
  .meta({ id: 'StoredScoreResult' });

export const postScoreRoutes: FeatureRoutes = async (app) => {
  app.post(
    '/v1/posts/:id/score',
    {
      config: { scope: 'write', modelBudget: true },
      schema: {
        tags,
        summary: 'Score a post',
        description:
          'Scores the stored text like POST /v1/score (cached, metered against the model budget and quota) and records the score against the post (`post.scored`).',
        params: IdParams,
        response: { 200: StoredScoreResult, ...errorResponses(401, 402, 404, 429, 502) },
      },
    },
    async (request) => scoreStoredPost({ ctx: request.ctx, input: request.params }),
  );

  app.get(
    '/v1/posts/:id/scores',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Scores recorded for a post',
        description: 'Newest first.',
        params: IdParams,
        response: { 200: PostScoreListResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => ({ scores: await listPostScores({ ctx: request.ctx, input: request.params }) }),
  );
};

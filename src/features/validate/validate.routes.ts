import { errorResponses } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { ValidatePostRequest, ValidationReport } from './validate.schemas.ts';
import { validatePost } from './validate.service.ts';

export const validateRoutes: FeatureRoutes = async (app) => {
  app.post(
    '/v1/posts/validate',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['posts'],
        summary: 'Validate a post',
        description:
          'Errors (empty, too long, unsupported platform, invalid or mismatched media) and warnings (6+ hashtags, external link, engagement bait, AI-tells). No model call, nothing stored; 200 even when not valid.',
        body: ValidatePostRequest,
        response: { 200: ValidationReport, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => validatePost({ ctx: request.ctx, input: request.body }),
  );
};

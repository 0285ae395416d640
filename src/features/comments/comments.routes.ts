import { errorResponses, IdParams } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { CommentListResult, CommentResult, CreateCommentRequest } from './comments.schemas.ts';
import { addComment, listComments } from './comments.service.ts';

const tags = ['posts'];

export const commentRoutes: FeatureRoutes = async (app) => {
  app.get(
    '/v1/posts/:id/comments',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'A post’s comments',
        description: 'Notes the workspace’s members left on the post, oldest first.',
        params: IdParams,
        response: { 200: CommentListResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => ({
      comments: await listComments({ ctx: request.ctx, input: { postId: request.params.id } }),
    }),
  );

  app.post(
    '/v1/posts/:id/comments',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Comment on a post',
        description: 'A note for the other members, in the calling member’s name; any post state.',
        params: IdParams,
        body: CreateCommentRequest,
        response: { 201: CommentResult, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        comment: await addComment({
          ctx: request.ctx,
          input: { postId: request.params.id, text: request.body.text },
        }),
      }),
  );
};

import { errorResponses, IdParams } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { cancelPostGroup, publishPostGroup } from './group-actions.service.ts';
import {
  CreatePostGroupRequest,
  MAX_GROUP_VARIANTS,
  PostGroupActionResult,
  PostGroupResult,
} from './post-groups.schemas.ts';
import { createPostGroup, getPostGroup } from './post-groups.service.ts';

const tags = ['post-groups'];

export const postGroupRoutes: FeatureRoutes = async (app) => {
  app.post(
    '/v1/post-groups',
    {
      config: { scope: 'write', idempotent: true },
      schema: {
        tags,
        summary: 'Post to several channels',
        description: `One composition for several channels: a post per variant (1-${MAX_GROUP_VARIANTS}, one per channel), each with its own text, \`thread\`, \`firstComment\` and \`mediaIds\`, each checked against its own channel's platform as POST /v1/posts checks a post. With \`runAt\` (epoch ms, in the future) every post is scheduled for that time; with \`queue: true\` each takes its own channel's next free queue slot; with neither they are drafts. All or none: any problem fails the request with each problem at its variant (\`variants[1].text\`) and nothing is written. Every post carries the group's id (\`groupId\`; list them with GET /v1/posts?groupId=) and is then a post like any other: edit, schedule, publish or cancel it alone, or the group at once. Scheduling needs the publish scope. Honours \`Idempotency-Key\`.`,
        body: CreatePostGroupRequest,
        response: { 201: PostGroupResult, ...errorResponses(400, 401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createPostGroup({ ctx: request.ctx, input: request.body })),
  );

  app.get(
    '/v1/post-groups/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Get a post group',
        description: 'The group and its posts, in the order of its variants (a deleted post drops out).',
        params: IdParams,
        response: { 200: PostGroupResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => getPostGroup({ ctx: request.ctx, input: request.params }),
  );

  app.post(
    '/v1/post-groups/:id/cancel',
    {
      config: { scope: 'publish' },
      schema: {
        tags,
        summary: 'Cancel a post group',
        description:
          'Cancels each post of the group that has not reached its platform, as POST /v1/posts/{id}/cancel does. A post that cannot be canceled (published, failed, or already being sent) stays as it is and is listed in `refused` with the code and message its own cancel answers.',
        params: IdParams,
        response: { 200: PostGroupActionResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => cancelPostGroup({ ctx: request.ctx, input: request.params }),
  );

  app.post(
    '/v1/post-groups/:id/publish',
    {
      config: { scope: 'publish', idempotent: true },
      schema: {
        tags,
        summary: 'Publish a post group now',
        description:
          'Publishes each post of the group now, as POST /v1/posts/{id}/publish does, each exactly once and all at once (each goes to its own channel). Posts already published are left out, so a second call after a partial failure publishes only the rest. A post that fails or cannot be published (canceled, failed, no longer a draft or scheduled) is listed in `refused` with the code and message its own publish answers; the answer is 200 with every post as it now is. Honours `Idempotency-Key`.',
        params: IdParams,
        response: { 200: PostGroupActionResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => publishPostGroup({ ctx: request.ctx, input: request.params }),
  );
};

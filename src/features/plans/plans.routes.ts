import { DeleteResult, errorResponses, IdParams, optionalBody } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { turnIntoDrafts } from './plan-drafts.service.ts';
import {
  PlanDraftsRequest,
  PlanDraftsResult,
  PlanListQuery,
  SavedPlanListResult,
  SavedPlanResult,
  SavePlanRequest,
} from './plans.schemas.ts';
import { deletePlan, getPlan, listPlans, savePlan } from './plans.service.ts';

const tags = ['plans'];

export const planRoutes: FeatureRoutes = async (app) => {
  app.post(
    '/v1/plans',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Save a plan',
        description:
          'Keeps a result of POST /v1/plan with the brief it was made from (and optionally the channel its drafts go to), so the plan outlives the page and its items can be turned into drafts. Items are stored in slot order; each starts with `postId` null. Costs no quota.',
        body: SavePlanRequest,
        response: { 201: SavedPlanResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ plan: await savePlan({ ctx: request.ctx, input: request.body }) }),
  );

  app.get(
    '/v1/plans',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'List saved plans',
        description: 'Newest first.',
        querystring: PlanListQuery,
        response: { 200: SavedPlanListResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => listPlans({ ctx: request.ctx, input: request.query }),
  );

  app.get(
    '/v1/plans/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Get a saved plan',
        params: IdParams,
        response: { 200: SavedPlanResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => ({ plan: await getPlan({ ctx: request.ctx, input: request.params }) }),
  );

  app.delete(
    '/v1/plans/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Delete a saved plan',
        description: 'Drafts already made from it are kept.',
        params: IdParams,
        response: { 200: DeleteResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => deletePlan({ ctx: request.ctx, input: request.params }),
  );

  app.post(
    '/v1/plans/:id/drafts',
    {
      config: { scope: 'write', idempotent: true },
      schema: {
        tags,
        summary: 'Turn a saved plan into drafts',
        description:
          "One post per item (all, or the `slots` named): the item's hook, then the brief's facts for that item (the sentences of the brief that share most with it: its figures first, then the words of its pillar, hook and angle), never the whole brief; a thread where the draft is longer than one post on a platform with threads. With `schedule: true` each post is scheduled at its item's `when` (the publish scope and the approval gate apply as for POST /v1/posts). An item whose post still exists is answered with it rather than made twice. Costs no quota.",
        params: IdParams,
        body: optionalBody(PlanDraftsRequest),
        response: { 200: PlanDraftsResult, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) =>
      turnIntoDrafts({ ctx: request.ctx, input: { id: request.params.id, request: request.body ?? {} } }),
  );
};

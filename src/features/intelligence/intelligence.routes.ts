import { errorResponses } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import {
  GenerateRequest,
  GenerateResult,
  PlanRequest,
  PlanResult,
  RewriteResult,
  ScoreRequest,
  ScoreResult,
} from './intelligence.schemas.ts';
import { generatePosts, planPosts, rewriteText, scoreTextJson } from './intelligence.service.ts';

const tags = ['intelligence'];
/** Model-backed: the tighter model budget, and Idempotency-Key replay. */
const config = { scope: 'write', modelBudget: true, idempotent: true } as const;
const JSON_TYPE = 'application/json; charset=utf-8';

export const intelligenceRoutes: FeatureRoutes = async (app) => {
  app.post(
    '/v1/score',
    {
      config,
      schema: {
        tags,
        summary: 'Score a post',
        description:
          'Deterministic rules (named signals, link and hashtag caps, hook archetype, format multiplier, timing) merged with the judge; `overall` is the weighted breakdown. Cached 30 days per input: a repeat costs no quota.',
        body: ScoreRequest,
        response: { 200: ScoreResult, ...errorResponses(400, 401, 402, 429, 502) },
      },
    },
    // The cached JSON goes out as is (Fastify does not re-serialise a JSON string): it was
    // produced from a ScoreResult, and the cache-hit path stays a single store read.
    async (request, reply) =>
      reply.type(JSON_TYPE).send((await scoreTextJson({ ctx: request.ctx, input: request.body })) as never),
  );

  app.post(
    '/v1/rewrite',
    {
      config,
      schema: {
        tags,
        summary: 'Rewrite a post',
        description:
          'Scores the original, rewrites it without inventing facts, and re-scores the rewrite; `after` is reported exactly as measured, even when lower.',
        body: ScoreRequest,
        response: { 200: RewriteResult, ...errorResponses(400, 401, 402, 429, 502) },
      },
    },
    async (request) => rewriteText({ ctx: request.ctx, input: request.body }),
  );

  app.post(
    '/v1/generate',
    {
      config,
      schema: {
        tags,
        summary: 'Generate drafts',
        description: '1-3 drafts from a brief, conditioned on the brand and voice, each scored; best first.',
        body: GenerateRequest,
        response: { 200: GenerateResult, ...errorResponses(400, 401, 402, 429, 502) },
      },
    },
    async (request) => generatePosts({ ctx: request.ctx, input: request.body }),
  );

  app.post(
    '/v1/plan',
    {
      config,
      schema: {
        tags,
        summary: 'Plan posts',
        description:
          '1-14 outline items (slot, pillar, hook, angle, format, archetype); brand themes become the pillars and a cadence sets each slot’s day.',
        body: PlanRequest,
        response: { 200: PlanResult, ...errorResponses(400, 401, 402, 429, 502) },
      },
    },
    async (request) => planPosts({ ctx: request.ctx, input: request.body }),
  );
};

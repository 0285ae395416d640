import { spend } from '../../http/rate-limit.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { CreateAccountRequest, CreateAccountResult, WhoamiResult } from './account.schemas.ts';
import { createAccount, whoami } from './account.service.ts';

const tags = ['account'];

export const accountRoutes: FeatureRoutes = async (app, { deps }) => {
  app.post(
    '/v1/account',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Create an account',
        description:
          'Returns the account and its first API key; the plaintext key is shown only here. Limited per IP.',
        security: [],
        body: CreateAccountRequest,
        response: { 201: CreateAccountResult, ...errorResponses(400, 409, 429) },
      },
      // The per-IP budget is spent before the body is validated, so garbage also counts.
      onRequest: async (request, reply) => {
        await spend(
          deps.kv,
          {
            key: `rl:signup:${request.ip}`,
            limit: deps.config.RATE_LIMIT_SIGNUPS_PER_HOUR,
            windowMs: 3_600_000,
            headerPrefix: 'x-ratelimit',
            label: 'account-creation',
          },
          reply,
          request.log,
        );
      },
    },
    async (request, reply) => {
      const ctx = { deps, requestId: request.id, log: request.log };
      return reply.status(201).send(await createAccount({ ctx, input: request.body }));
    },
  );

  app.get(
    '/v1/account',
    {
      schema: {
        tags,
        summary: 'Who am I',
        description: 'The account and the calling key, with the x-ratelimit-* headers.',
        response: { 200: WhoamiResult, ...errorResponses(401, 429) },
      },
    },
    async (request) => whoami({ ctx: request.ctx, input: undefined }),
  );
};

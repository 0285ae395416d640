import { z } from 'zod';
import type { FeatureRoutes } from '../feature-routes.ts';
import { HealthResult, MetaResult } from './system.schemas.ts';
import { checkHealth, describeService } from './system.service.ts';

/**
 * The one client error a probe or the meta document can get: headers (or a URL) larger than the
 * server reads, refused before routing (http/early-errors.ts), so the body has no requestId.
 */
const HEADERS_TOO_LARGE = {
  431: z
    .object({ error: z.object({ code: z.literal('headers_too_large'), message: z.string() }) })
    .describe('Request headers or URL larger than the server accepts; answered before routing'),
};

export const systemRoutes: FeatureRoutes = async (app, { deps }) => {
  // Probes arrive every few seconds: no request lines for them (warnings, e.g. a failed
  // dependency check, still show).
  app.get(
    '/healthz',
    {
      logLevel: 'warn',
      config: { public: true },
      schema: {
        tags: ['service'],
        summary: 'Liveness probe',
        description: 'Plain `ok`; touches no dependency.',
        security: [],
        response: { 200: z.string(), ...HEADERS_TOO_LARGE },
      },
    },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send('ok'),
  );

  app.get(
    '/v1/health',
    {
      logLevel: 'warn',
      config: { public: true },
      schema: {
        tags: ['service'],
        summary: 'Readiness probe',
        description:
          'Checks the database and the key-value store; 503 with the same body when either is degraded.',
        security: [],
        response: { 200: HealthResult, ...HEADERS_TOO_LARGE, 503: HealthResult },
      },
    },
    async (_request, reply) => {
      const health = await checkHealth(deps);
      return reply.status(health.status === 'ok' ? 200 : 503).send(health);
    },
  );

  app.get(
    '/v1/meta',
    {
      config: { public: true },
      schema: {
        tags: ['service'],
        summary: 'Service contract',
        description:
          'Scoring schema version, post length limits, platforms, media kinds, follower bands, the scoring dimensions with their weights, and this deployment’s capabilities.',
        security: [],
        response: { 200: MetaResult, ...HEADERS_TOO_LARGE },
      },
    },
    async () => describeService(deps),
  );

  app.get(
    '/v1/openapi.json',
    {
      config: { public: true },
      schema: { hide: true },
    },
    async (_request, reply) =>
      reply.type('application/json; charset=utf-8').send(JSON.stringify(app.swagger())),
  );
};

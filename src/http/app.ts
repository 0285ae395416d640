import { randomUUID } from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { setRequestIdHeader } from '../api/reply-headers.ts';
import type { AppDeps } from '../context.ts';
import type { FeatureRoutes } from '../features/feature-routes.ts';
import { registerAuth } from './auth.ts';
import { registerConsole } from './console.ts';
import { createClientErrorHandler, frameworkErrorHandler, unsupportedMediaType } from './early-errors.ts';
import { registerErrorHandler } from './error-handler.ts';
import { registerIdempotency } from './idempotency.ts';
import { withLazyRequestChildren } from './lazy-logger.ts';
import { registerMetrics } from './metrics-endpoint.ts';
import { finishDocument, operationIdOf } from './openapi-document.ts';
import { RequestLinesWhenWritten } from './request-lines.ts';
import { registerTextSafety } from './text-safety.ts';
import './route-config.ts';
import { API_VERSION } from '../api/version.ts';

export { API_VERSION } from '../api/version.ts';

export type App = FastifyInstance;

const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;

type Transform = ReturnType<typeof createJsonSchemaTransform>;

/**
 * Request ids: a random 48-bit tag per process and a counter (distinct across processes and
 * restarts in practice), cheaper than a UUID per request (this runs on every request).
 */
const REQUEST_ID_TAG = `req_${randomUUID().replaceAll('-', '').slice(0, 12)}-`;
/** Each app counts its own requests (the tag keeps two apps in one process apart). */
function requestIds(): () => string {
  let seq = 0;
  return () => `${REQUEST_ID_TAG}${(++seq).toString(36)}`;
}

/** Adds the success responses of routes flagged `rawResponses` to the OpenAPI document. */
function withRawResponses(transform: Transform): Transform {
  return (input) => {
    const out = transform(input);
    const named = out.schema as { operationId?: string };
    named.operationId ??= operationIdOf(String(input.route.method), input.url);
    const raw = input.route.config?.rawResponses;
    if (!raw) return out;
    const schema = out.schema as { response?: Record<string, unknown> };
    const documented: Record<string, unknown> = {};
    for (const [status, { description, types, binary }] of Object.entries(raw)) {
      const body = binary ? { type: 'string', format: 'binary' } : { type: 'object' };
      documented[status] = types.length
        ? { description, content: Object.fromEntries(types.map((t) => [t, { schema: body }])) }
        : { description };
    }
    schema.response = { ...documented, ...schema.response };
    return out;
  };
}

/**
 * Builds the HTTP app over already-open dependencies, serving `routes` (the composition root's
 * list, src/compose/routes.ts); listening is the caller's business.
 */
export async function buildApp(deps: AppDeps, routes: readonly FeatureRoutes[]): Promise<App> {
  const nextRequestId = requestIds();
  const app = Fastify({
    // A request's child logger is made only if it writes a line (lazy-logger.ts).
    loggerInstance: withLazyRequestChildren(deps.log),
    // Fastify's "incoming request" / "request completed" lines are built only when written.
    logController: new RequestLinesWhenWritten(),
    bodyLimit: deps.config.BODY_LIMIT_BYTES,
    // Honour a sane incoming request id (from a proxy) so logs join up; otherwise mint one.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : nextRequestId();
    },
    requestIdHeader: false,
    routerOptions: { maxParamLength: 200 },
    forceCloseConnections: 'idle',
    // Errors raised before routing answer in the API's envelope too (early-errors.ts).
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler: createClientErrorHandler(deps.log),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Many clients send `Content-Type: application/json` with no body on POSTs like rotate:
  // treat an empty body as absent instead of failing; anything else goes through Fastify's
  // own parser (which guards against prototype poisoning).
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // JSON sent as text/plain would reach the validators as a string: answer 415 naming
  // application/json, as for any other type no route accepts. An empty text/plain body (a
  // client's default header on a bodiless DELETE or POST) is simply no body.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) =>
    String(body) === '' ? done(null, undefined) : done(unsupportedMediaType(), undefined),
  );
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    return jsonParser(request, String(body), done);
  });
  app.addHook('onRequest', (request, reply, done) => {
    setRequestIdHeader(reply, request.id);
    done();
  });
  registerErrorHandler(app);
  // Request timing (and /metrics on this port behind METRICS_TOKEN) when metrics are on.
  registerMetrics(app, deps);

  const zodToJsonConfig = { target: 'draft-2020-12' as const };
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Postkit API',
        version: API_VERSION,
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'Social content intelligence and publishing: score, rewrite, generate and plan posts, then publish them exactly once. Human-readable reference v0.1.0.',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'kit_sk_… API key' } },
      },
      security: [{ bearerAuth: [] }],
    },
    transform: withRawResponses(
      createJsonSchemaTransform({ zodToJsonConfig, skipList: ['/docs', '/docs/*'] }),
    ),
    transformObject: (input) =>
      finishDocument(
        createJsonSchemaTransformObject({ zodToJsonConfig })(input) as Record<string, unknown>,
        deps.config.PUBLIC_BASE_URL,
      ) as ReturnType<ReturnType<typeof createJsonSchemaTransformObject>>,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    staticCSP: true,
    // The reference page renders the same document /v1/openapi.json serves.
  });

  registerAuth(app, deps);
  registerTextSafety(app);
  await deps.authCache.listen(deps.kv);
  registerIdempotency(app, deps);

  // The web console at `/` (and its return from a channel connect), before the routes it wraps.
  await registerConsole(app);
  for (const plugin of routes) await app.register(plugin, { deps });
  return app;
}

import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../context.ts';
import { sha256Hex } from '../lib/hash.ts';
import { metricsExposure } from '../observability/metrics.ts';
import { AppError } from './errors.ts';

/**
 * GET /metrics (Prometheus text) is never public by default. METRICS_PORT serves it on a port of
 * its own, which a deployment keeps off the public network (with METRICS_TOKEN too, if set);
 * otherwise METRICS_TOKEN serves it on the main port to that bearer token only; with neither,
 * the main port answers 404 as for any unknown path.
 */

/** Compares digests, so the time taken says nothing about the token. */
function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) return false;
  return timingSafeEqual(Buffer.from(sha256Hex(match[1]!)), Buffer.from(sha256Hex(token)));
}

const badToken = () =>
  new AppError(401, 'unauthorized', 'GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`.');

/** Times every request by route pattern when metrics are on, and serves /metrics on the main port when so configured. */
export function registerMetrics(app: FastifyInstance, deps: AppDeps) {
  const { metrics, config } = deps;
  if (!metrics.enabled) return;
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
  const token = config.METRICS_TOKEN;
  if (metricsExposure(config) !== 'token' || !token) return;
  app.get(
    '/metrics',
    { logLevel: 'warn', config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      if (!tokenMatches(request.headers.authorization, token)) throw badToken();
      const { contentType, body } = await metrics.render();
      return reply.type(contentType).send(body);
    },
  );
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/** The METRICS_PORT listener: GET /metrics only, on HOST, for every role (workers included). */
export async function startMetricsServer(deps: AppDeps): Promise<MetricsServer | null> {
  const { config, metrics, log } = deps;
  if (metricsExposure(config) !== 'port') return null;
  const token = config.METRICS_TOKEN;
  const answer = (res: ServerResponse, status: number, text: string) =>
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${text}\n`);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD'))
      return answer(res, 404, 'Not found. Metrics are at GET /metrics.');
    if (token && !tokenMatches(req.headers.authorization, token))
      return answer(res, 401, 'GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`.');
    metrics.render().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      (err) => {
        log.error({ err }, 'could not render metrics');
        answer(res, 500, 'Could not render metrics.');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.METRICS_PORT, config.HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

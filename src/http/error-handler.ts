import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDependencyOutage } from '../domain/dependency-outage.ts';
import { OAuthRefused } from '../domain/errors.ts';
import { AppError, type ErrorDetail, errorObject, toAppError } from './errors.ts';
import { sendOAuthRefusal } from './oauth-errors.ts';

/** `/items/2/runAt` -> `items[2].runAt`, prefixed by where it came from when not the body. */
function toPath(context: string | undefined, instancePath: string): string {
  const segments = instancePath.split('/').filter(Boolean);
  let path = '';
  for (const seg of segments) path += /^\d+$/.test(seg) ? `[${seg}]` : path ? `.${seg}` : seg;
  const where = context && context !== 'body' ? context : '';
  if (!where) return path || '(body)';
  return path ? `${where}.${path}` : where;
}

function send(reply: FastifyReply, request: FastifyRequest, err: AppError) {
  if (err.headers) reply.headers(err.headers);
  return reply.status(err.status).send({ error: errorObject(err, request.id), ...err.extra });
}

/** Maps Fastify's own client errors (bad JSON, body too large, wrong content type) to our codes. */
function fromFastifyError(err: FastifyError): AppError | undefined {
  const status = err.statusCode ?? 500;
  if (status >= 500) return undefined;
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(413, 'payload_too_large', 'The request body is larger than this endpoint accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(415, 'unsupported_media_type', `Unsupported Content-Type; send application/json.`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(
        400,
        'invalid_request',
        'The body is empty but Content-Type is application/json; send a JSON object or drop the header.',
      );
    default:
      if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY')
        return new AppError(400, 'invalid_request', `The body is not valid JSON: ${err.message}`);
      return new AppError(status, status === 404 ? 'not_found' : 'invalid_request', err.message);
  }
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    // OAuth's protocol endpoints answer in OAuth's own shape, which OAuth clients read.
    if (err instanceof OAuthRefused) return sendOAuthRefusal(reply, err);
    const answer = toAppError(err);
    if (answer) {
      if (answer.status >= 500) request.log.warn({ err, code: answer.code }, 'request failed upstream');
      return send(reply, request, answer);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const context = (err as { validationContext?: string }).validationContext;
      const details: ErrorDetail[] = err.validation.flatMap((v) => {
        const keys = (v.params as { keys?: unknown } | undefined)?.keys;
        // Unknown fields are reported one by one, at their own path, so the fix is obvious.
        if (v.keyword === 'unrecognized_keys' && Array.isArray(keys)) {
          return keys.map((key) => ({
            path: toPath(context, `${v.instancePath}/${String(key)}`),
            message: 'Unknown field; remove it',
          }));
        }
        return [{ path: toPath(context, v.instancePath), message: v.message ?? 'Invalid value' }];
      });
      const where =
        context === 'querystring'
          ? 'query parameters'
          : context === 'params'
            ? 'path'
            : (context ?? 'request');
      return send(
        reply,
        request,
        new AppError(400, 'invalid_request', `The ${where} did not validate: fix the listed fields.`, {
          details,
        }),
      );
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause.issues }, 'response did not match its schema');
      return send(
        reply,
        request,
        new AppError(500, 'internal_error', 'The server failed to build its response.'),
      );
    }
    const mapped = fromFastifyError(err);
    if (mapped) return send(reply, request, mapped);
    if (isDependencyOutage(err)) {
      request.log.error({ err }, 'dependency unavailable');
      return send(
        reply,
        request,
        new AppError(503, 'dependency_unavailable', 'A backing service is unavailable; retry shortly.', {
          headers: { 'retry-after': '2' },
        }),
      );
    }
    // Anything else is our bug or an outage: log it in full, tell the caller nothing internal.
    request.log.error({ err }, 'unhandled error');
    return send(
      reply,
      request,
      new AppError(500, 'internal_error', 'Something went wrong on our side; retry later.'),
    );
  });

  app.setNotFoundHandler((request, reply) =>
    send(
      reply,
      request,
      new AppError(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}.`),
    ),
  );
}

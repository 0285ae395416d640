import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * Fastify's own per-request lines ("incoming request", "request completed"), built only when
 * they would be written. Fastify calls the request logger's `info` for both on every request,
 * allocating their bindings object (and the call's arguments) even when info is below
 * LOG_LEVEL, as it is in production and in bench/api. The lines are the same when info is on;
 * errored requests are handed to Fastify as before, whatever the level.
 */
export class RequestLinesWhenWritten extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>) {
    if (request.log.isLevelEnabled('info')) super.incomingRequest(request, reply, metadata);
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ) {
    if (error || reply.log.isLevelEnabled('info')) super.requestCompleted(error, request, reply, metadata);
  }
}

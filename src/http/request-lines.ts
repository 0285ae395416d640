import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** Whether the logger writes info lines; a logger that cannot say is asked to write them. */
function writesInfo(log: FastifyBaseLogger): boolean {
  const check = (log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return typeof check === 'function' ? check.call(log, 'info') : true;
}

/**
 * Fastify's own per-request lines ("incoming request", "request completed"), built only when
 * they would be written. Fastify calls the request logger's `info` for both on every request,
 * allocating their bindings object (and the call's arguments) even when info is below
 * LOG_LEVEL (a deployment that sets LOG_LEVEL=warn, and bench/api). The lines are the same when
 * info is on (the default); errored requests are handed to Fastify as before, whatever the level.
 */
export class RequestLinesWhenWritten extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>) {
    if (writesInfo(request.log)) super.incomingRequest(request, reply, metadata);
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ) {
    if (error || writesInfo(reply.log)) super.requestCompleted(error, request, reply, metadata);
  }
}

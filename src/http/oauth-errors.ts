import type { FastifyReply } from 'fastify';
import type { OAuthErrorCode, OAuthRefused } from '../domain/errors.ts';

/**
 * OAuth's wire format for a refused protocol request, the one place it is written: the status
 * of each code (RFC 6749 section 5.2: 400, and 401 for a client that cannot be identified), the
 * body `{error, error_description}` and `cache-control: no-store`. The app's error handler
 * (error-handler.ts) sends every `OAuthRefused` through here, whichever route threw it.
 */
const STATUS_OF_CODE: Partial<Record<OAuthErrorCode, number>> = {
  invalid_client: 401,
  too_many_requests: 429,
};

export function oauthStatusOf(code: OAuthErrorCode): number {
  return STATUS_OF_CODE[code] ?? 400;
}

export function sendOAuthRefusal(reply: FastifyReply, err: OAuthRefused) {
  if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.retryAfterSeconds));
  return reply
    .status(oauthStatusOf(err.code))
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send({ error: err.code, error_description: err.message });
}

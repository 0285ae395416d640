import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/**
 * Answers for requests that fail before routing, in the API's error envelope
 * `{error: {code, message, requestId?}}` instead of Fastify's own `{error, statusCode}` body:
 * a URL that cannot be decoded or whose id is too long (Fastify's `frameworkErrors`), and HTTP
 * that Node's parser refuses (headers too large, a malformed chunked body; `clientError`).
 */

function envelope(code: string, message: string, requestId?: string): string {
  return JSON.stringify({ error: requestId ? { code, message, requestId } : { code, message } });
}

/** A body in a type no JSON route parses (text/plain, XML…): 415 naming the one it does. */
export const unsupportedMediaType = () =>
  new AppError(415, 'unsupported_media_type', 'Unsupported Content-Type; send the body as application/json.');

/** Routing failures: the request exists, so it gets an id, the x-request-id header and a log line. */
export function frameworkErrorHandler(
  err: Error & { code?: string },
  request: FastifyRequest,
  reply: FastifyReply,
) {
  let status = 400;
  let code = 'invalid_request';
  let message = 'The request URL could not be read; check its percent-encoding.';
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    status = 414;
    code = 'uri_too_long';
    message = 'A path segment is longer than any id this API issues; check the URL.';
  } else if (err.code !== 'FST_ERR_BAD_URL') {
    status = 500;
    code = 'internal_error';
    message = 'Something went wrong on our side; retry later.';
    request.log.error({ err }, 'routing failed');
  }
  reply
    .code(status)
    .header('x-request-id', request.id)
    .type('application/json; charset=utf-8')
    .send(envelope(code, message, request.id));
}

const CLIENT_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'headers_too_large',
    message: 'The request headers are larger than this server accepts.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'request_timeout',
    message: 'The request was not received in time.',
  },
  HPE_URI_TOO_LONG: { status: 414, code: 'uri_too_long', message: 'The request URL is too long.' },
};

const MALFORMED = {
  status: 400,
  code: 'invalid_request',
  message: 'The request is not valid HTTP (for example a malformed chunked body); it was not processed.',
};

/**
 * Node's `clientError`: the HTTP parser refused the bytes, so there is no request object and the
 * connection cannot be reused. Write one envelope answer if the socket still takes it, then close.
 */
export function createClientErrorHandler(log: FastifyBaseLogger) {
  return (err: Error & { code?: string }, socket: Socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const answer = (err.code && CLIENT_ERRORS[err.code]) || MALFORMED;
    log.debug({ err: { code: err.code, message: err.message } }, 'client error before routing');
    if (socket.writable) {
      const body = envelope(answer.code, answer.message);
      socket.write(
        `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Connection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}

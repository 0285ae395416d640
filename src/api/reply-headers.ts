import type { FastifyReply } from 'fastify';

/**
 * Response headers set on every authenticated request (`x-request-id`, the `x-ratelimit-*`
 * three), written with names that are already lower case. Fastify's `reply.header` lower-cases
 * each name and stores it under a computed key, so in a process that sets many different headers
 * each call is a string conversion and two megamorphic property accesses (callgrind, bench/api:
 * about 550 instructions a header, four headers a request). Fastify keeps a reply's headers in
 * a plain object under a symbol of its own (`fastify.reply.headers`, lib/symbols.js); writing
 * there with constant names is what `reply.header` does after lower-casing. Found once, on the
 * first reply; a Fastify without it (an upgrade that moved it) gets `reply.header`, and
 * test/foundation/reply-headers.test.ts fails so the fast path is not lost unnoticed.
 */
const HEADERS_DESCRIPTION = 'fastify.reply.headers';
let headersKey: symbol | null | undefined;

/** Fastify's header object of this reply, or null when this Fastify keeps none where expected. */
export function replyHeaderObject(reply: FastifyReply): Record<string, unknown> | null {
  if (headersKey === undefined) {
    headersKey =
      Object.getOwnPropertySymbols(reply).find((s) => s.description === HEADERS_DESCRIPTION) ?? null;
  }
  if (headersKey === null) return null;
  const headers = (reply as unknown as Record<symbol, unknown>)[headersKey];
  return headers !== null && typeof headers === 'object' ? (headers as Record<string, unknown>) : null;
}

/** The request id header, on every response (docs/decisions.md, `x-request-id`). */
export function setRequestIdHeader(reply: FastifyReply, id: string): void {
  const headers = replyHeaderObject(reply);
  if (headers) headers['x-request-id'] = id;
  else reply.header('x-request-id', id);
}

import { z } from 'zod';

/** Shared wire shapes: the error body and pagination (DECISIONS.md). */
export const ErrorBody = z
  .object({
    error: z
      .object({
        code: z.string().describe('snake_case error code'),
        message: z.string().describe('One sentence saying what went wrong and how to fix it'),
        details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
        requestId: z.string(),
      })
      .catchall(z.unknown()),
  })
  .catchall(z.unknown())
  .meta({ id: 'Error' });

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request body or query parameters',
  401: 'Missing or invalid API key',
  402: 'Monthly model quota exceeded (quota_exceeded)',
  404: 'Resource not found for this account',
  409: 'Conflict with the resource state',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Idempotency key reused with a different request',
  429: 'Rate limit exceeded; see Retry-After',
  502: 'Upstream model or platform misbehaved',
  503: 'Capability not configured or dependency degraded',
};

/** Error responses for a route's schema, each documented with the shared Error body. */
export function errorResponses(...statuses: number[]) {
  const out: Record<number, typeof ErrorBody> = {};
  for (const status of statuses) {
    out[status] = ErrorBody.describe(ERROR_DESCRIPTIONS[status] ?? 'Error') as typeof ErrorBody;
  }
  return out;
}

export const PaginationQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50).describe('Page size, 1-100'),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0).describe('Items to skip'),
});
export type PaginationQuery = z.output<typeof PaginationQuery>;

export const Pagination = z
  .object({ limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() })
  .meta({ id: 'Pagination' });
export type Pagination = z.output<typeof Pagination>;

export const IdParams = z.object({ id: z.string().min(1).max(64) });
export const DeleteResult = z.object({ deleted: z.boolean() }).meta({ id: 'DeleteResult' });

/**
 * A body that may be left out. Fastify hands a missing body to the validator as null, so the
 * schema accepts null too; handlers read `request.body ?? {}`.
 */
export const optionalBody = <T extends z.ZodType>(schema: T) => schema.nullish();

/** A stretch of a submitted text: UTF-16 code-unit offsets, `start` inclusive, `end` exclusive. */
export const TextSpan = z
  .object({ start: z.number().int().min(0), end: z.number().int().min(0) })
  .meta({ id: 'TextSpan' });

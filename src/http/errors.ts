import {
  DomainError,
  type DomainErrorKind,
  type ErrorDetail,
  OAuthRefused,
  PublishFailed,
} from '../domain/errors.ts';
import { oauthStatusOf } from './oauth-errors.ts';

export type { ErrorDetail };

/**
 * An error as the API answers it: status, `{error: {code, message, details?, ...about,
 * requestId}}` plus any top-level extras (publish's `post`), and headers. Services throw domain errors
 * (src/domain/errors.ts); `toAppError` is the one place they become statuses and headers.
 * AppError itself is built only by HTTP-level code (auth, idempotency, Fastify's own errors).
 */
export interface AppErrorOptions {
  details?: ErrorDetail[];
  /** Fields inside the `error` object, e.g. the post in the way of an edit. */
  about?: Record<string, unknown>;
  /** Extra top-level fields next to `error`, e.g. the failed post of a publish. */
  extra?: Record<string, unknown>;
  /** Response headers to set, e.g. Retry-After. */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[] | undefined;
  readonly about: Record<string, unknown> | undefined;
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(status: number, code: string, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.about = options.about;
    this.extra = options.extra;
    this.headers = options.headers;
  }
}

/**
 * The `error` object a caller reads, REST and MCP alike: code, message, field details, what the
 * error is about (`about`, e.g. the post in the way) and the request id. `details` lets the MCP
 * layer name arguments where REST names query fields.
 */
export function errorObject(
  err: AppError,
  requestId: string,
  details: ErrorDetail[] | undefined = err.details,
): Record<string, unknown> {
  const error: Record<string, unknown> = { code: err.code, message: err.message };
  if (details?.length) error.details = details;
  if (err.about) Object.assign(error, err.about);
  error.requestId = requestId;
  return error;
}

export const unauthorized = (message = 'Missing or invalid API key. Send `Authorization: Bearer <key>`.') =>
  new AppError(401, 'unauthorized', message);

/** The status each kind of domain error answers with. */
const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  quota_exceeded: 402,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_type: 415,
  rate_limited: 429,
  internal: 500,
  upstream_failed: 502,
  publish_failed: 502,
  oauth_refused: 400,
  not_configured: 503,
  dependency_unavailable: 503,
};

/** A failed publish answers like the problem that failed it. */
const STATUS_OF_PUBLISH_FAILURE: Record<PublishFailed['reason'], number> = {
  invalid: 400,
  conflict: 409,
  platform: 502,
};

function statusOf(err: DomainError): number {
  if (err instanceof PublishFailed) return STATUS_OF_PUBLISH_FAILURE[err.reason];
  if (err instanceof OAuthRefused) return oauthStatusOf(err.code);
  return STATUS_OF_KIND[err.kind];
}

function headersOf(err: DomainError): Record<string, string> | undefined {
  const retryAfter = 'retryAfterSeconds' in err ? err.retryAfterSeconds : undefined;
  return typeof retryAfter === 'number' ? { 'retry-after': String(retryAfter) } : undefined;
}

/** The API's answer for an error: domain errors mapped, AppErrors as they are, anything else undefined. */
export function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  if (!(err instanceof DomainError)) return undefined;
  return new AppError(statusOf(err), err.code, err.message, {
    details: err.details,
    about: err.about,
    extra: err.extra,
    headers: headersOf(err),
    cause: err,
  });
}

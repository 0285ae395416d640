/**
 * Typed errors thrown by services; one handler (error-handler.ts) renders them as
 * `{error: {code, message, details?, requestId}}` plus any top-level extras (e.g. `post`).
 */
export interface ErrorDetail {
  path: string;
  message: string;
}

export interface AppErrorOptions {
  details?: ErrorDetail[];
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
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(status: number, code: string, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.extra = options.extra;
    this.headers = options.headers;
  }
}

export const invalidRequest = (message: string, details?: ErrorDetail[]) =>
  new AppError(400, 'invalid_request', message, { details });

export const unauthorized = (message = 'Missing or invalid API key. Send `Authorization: Bearer <key>`.') =>
  new AppError(401, 'unauthorized', message);

export const notFound = (what: string) =>
  new AppError(404, 'not_found', `${what} not found for this account.`);

export const conflict = (code: string, message: string, extra?: Record<string, unknown>) =>
  new AppError(409, code, message, { extra });

export const notConfigured = (message: string) => new AppError(503, 'not_configured', message);

export const rateLimited = (retryAfterSeconds: number, which: string) =>
  new AppError(
    429,
    'rate_limited',
    `Rate limit exceeded for the ${which} budget; retry in ${retryAfterSeconds}s.`,
    {
      headers: { 'retry-after': String(retryAfterSeconds) },
    },
  );

export const quotaExceeded = (limit: number) =>
  new AppError(
    402,
    'quota_exceeded',
    `This account has used its ${limit} model-backed operations for this month; the quota resets on the 1st (UTC).`,
  );

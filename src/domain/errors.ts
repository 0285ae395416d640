/**
 * What services, sweeps and the scoring engine throw when a call cannot be served, said in
 * the domain's own terms. Nothing here knows a transport: `src/http/errors.ts` maps each
 * `kind` to a status and headers for REST, and `src/mcp/tool-result.ts` reuses that mapping
 * for tool errors. A response renders as `{error: {code, message, details?, ...about}}` plus
 * `extra`.
 */
export interface ErrorDetail {
  path: string;
  message: string;
}

export interface DomainErrorOptions {
  details?: ErrorDetail[];
  /**
   * Fields inside the `error` object, e.g. the `post` or `channel` in the way. CONTRACT.md's
   * Error schema is an object with the single key `error`, so context goes in there...
   */
  about?: Record<string, unknown>;
  /** ...except where the contract puts it beside `error`: publish's PostErrorResult `{error, post}`. */
  extra?: Record<string, unknown>;
  cause?: unknown;
}

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  readonly code: string;
  readonly details: ErrorDetail[] | undefined;
  readonly about: Record<string, unknown> | undefined;
  readonly extra: Record<string, unknown> | undefined;

  constructor(code: string, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details;
    this.about = options.about;
    this.extra = options.extra;
  }
}

export type DomainErrorKind =
  | 'invalid'
  | 'not_found'
  | 'unauthenticated'
  | 'forbidden'
  | 'conflict'
  | 'too_large'
  | 'unsupported_type'
  | 'quota_exceeded'
  | 'rate_limited'
  | 'not_configured'
  | 'dependency_unavailable'
  | 'upstream_failed'
  | 'publish_failed'
  | 'oauth_refused'
  | 'internal';

/** The caller must fix the request: a bad field, a reference that is not theirs. */
export class Invalid extends DomainError {
  readonly kind = 'invalid';
  constructor(message: string, details?: ErrorDetail[], code = 'invalid_request') {
    super(code, message, { details });
  }
}

/** `what` (e.g. 'Channel') does not exist for the calling account. */
export class NotFound extends DomainError {
  readonly kind = 'not_found';
  constructor(what: string, details?: ErrorDetail[]) {
    super('not_found', `${what} not found for this account.`, { details });
  }
}

/** The credentials presented do not identify anyone (a wrong email or password at sign-in). */
export class Unauthenticated extends DomainError {
  readonly kind = 'unauthenticated';
}

/**
 * The credential lacks the scope this call needs (src/domain/scopes.ts). `error.scope` names
 * it; the message says what the scope allows and how to get a credential that has it.
 */
export class InsufficientScope extends DomainError {
  readonly kind = 'forbidden';
  readonly scope: string;
  constructor(scope: string, message: string) {
    super('insufficient_scope', message, { about: { scope } });
    this.scope = scope;
  }
}

/**
 * The caller's role in the workspace does not allow this (src/domain/roles.ts). `error.role`
 * names the least role that does; the message says so in words.
 */
export class RoleRequired extends DomainError {
  readonly kind = 'forbidden';
  readonly role: string;
  constructor(role: string, message: string) {
    super('forbidden', message, { about: { role } });
    this.role = role;
  }
}

/** The request is valid but the thing's current state refuses it; `code` says which state. */
export class Conflict extends DomainError {
  readonly kind = 'conflict';
  constructor(code: string, message: string, options: Pick<DomainErrorOptions, 'about' | 'extra'> = {}) {
    super(code, message, options);
  }
}

/** A body or upload over its size limit. */
export class TooLarge extends DomainError {
  readonly kind = 'too_large';
  constructor(message: string) {
    super('payload_too_large', message);
  }
}

/** A media type this endpoint does not accept, or bytes that are not what they claim. */
export class UnsupportedType extends DomainError {
  readonly kind = 'unsupported_type';
  constructor(message: string) {
    super('unsupported_media_type', message);
  }
}

/** The account's plan has no model-backed operations left this month. */
export class QuotaExceeded extends DomainError {
  readonly kind = 'quota_exceeded';
  constructor(limit: number) {
    super(
      'quota_exceeded',
      `This account has used its ${limit} model-backed operations for this month; the quota resets on the 1st (UTC).`,
    );
  }
}

/** Too many calls for a budget; worth retrying after `retryAfterSeconds`. */
export class RateLimited extends DomainError {
  readonly kind = 'rate_limited';
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, message: string) {
    super('rate_limited', message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The deployment lacks what this call needs (a platform's client id, a webhook vault key...). */
export class NotConfigured extends DomainError {
  readonly kind = 'not_configured';
  constructor(message: string) {
    super('not_configured', message);
  }
}

/** A backing service or platform is down for now; retry (after `retryAfterSeconds` when known). */
export class DependencyUnavailable extends DomainError {
  readonly kind = 'dependency_unavailable';
  readonly retryAfterSeconds: number | undefined;
  constructor(
    code: string,
    message: string,
    options: DomainErrorOptions & { retryAfterSeconds?: number } = {},
  ) {
    super(code, message, options);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** A platform or the model answered with an error or nonsense (`platform_error`, `model_error`...). */
export class UpstreamFailed extends DomainError {
  readonly kind = 'upstream_failed';
}

/**
 * Why a publish ended in `failed`: `invalid` (the post cannot be published as it is),
 * `conflict` (its channel or media is in the way) or `platform` (the platform refused, or
 * the outcome could not be confirmed).
 */
export interface PublishFailure {
  reason: 'invalid' | 'conflict' | 'platform';
  code: string;
  message: string;
}

/**
 * A publish that ended in `failed`; carries the post as it now is. CONTRACT.md codes every
 * failure on the platform's side `publish_failed`, so that is the code a caller switches on;
 * the precise cause (`publish_outcome_unknown`, ...) opens the embedded post's `error`.
 */
export class PublishFailed extends DomainError {
  readonly kind = 'publish_failed';
  readonly reason: PublishFailure['reason'];
  constructor(failure: PublishFailure, post: unknown) {
    super(failure.reason === 'platform' ? 'publish_failed' : failure.code, failure.message, {
      extra: { post },
    });
    this.reason = failure.reason;
  }
}

/**
 * The error codes of OAuth's protocol endpoints: RFC 6749 section 5.2 (token), RFC 7591
 * section 3.2.2 (registration), RFC 7009 section 2.2.1 (revocation), RFC 8707 (resource), and
 * `too_many_requests` for a registration over its budget.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'too_many_requests';

/**
 * An OAuth protocol request (registration, token, revocation) refused with one of OAuth's own
 * codes. Only `src/http/oauth-errors.ts` renders it, in OAuth's wire shape
 * `{error, error_description}` that OAuth clients read.
 */
export class OAuthRefused extends DomainError {
  readonly kind = 'oauth_refused';
  declare readonly code: OAuthErrorCode;
  readonly retryAfterSeconds: number | undefined;
  constructor(code: OAuthErrorCode, message: string, options: { retryAfterSeconds?: number } = {}) {
    super(code, message);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Our own state is broken (e.g. a media row whose stored file is gone); the message is safe to show. */
export class InternalFailure extends DomainError {
  readonly kind = 'internal';
  constructor(message: string) {
    super('internal_error', message);
  }
}

import { PlatformError, type PlatformErrorKind } from '../platform.ts';
import { type CallKind, type HttpAnswer, type HttpCall, headerValue, redact } from '../transport.ts';

/**
 * Every failure PLATFORM_B.md lists, as one table: the first row whose `when` matches decides
 * the kind and the message. Order matters (a create's 5xx is an unknown outcome before it is an
 * outage; the duplicate 403 before any other 403).
 */
interface Failure {
  call: HttpCall;
  status: number;
  /** The platform's words: problem `detail`/`title`, `errors[].message`, or OAuth `error`. */
  detail: string;
  oauthError: string | null;
}

interface Row {
  name: string;
  when: (f: Failure) => boolean;
  kind: PlatformErrorKind;
  message: (f: Failure) => string;
}

const DUPLICATE = /duplicate content/i;
const is =
  (...kinds: CallKind[]) =>
  (f: Failure) =>
    kinds.includes(f.call.kind);
const said = (f: Failure) => `${f.status}${f.detail ? `: ${f.detail}` : ''}`;

export const FAILURES: readonly Row[] = [
  {
    name: 'refresh token or code refused',
    when: (f) => is('oauth')(f) && f.oauthError === 'invalid_grant',
    kind: 'exchange_failed',
    message: (f) => `platformB refused to ${f.call.what} (invalid_grant${f.detail ? `: ${f.detail}` : ''}).`,
  },
  {
    name: 'app credentials refused',
    when: (f) => is('oauth')(f) && (f.status === 401 || f.oauthError === 'invalid_client'),
    kind: 'misconfigured',
    message: (f) =>
      `platformB refused the app credentials (${said(f)}); check PLATFORMB_CLIENT_ID and PLATFORMB_CLIENT_SECRET.`,
  },
  {
    name: 'create without a clear answer',
    when: (f) => is('create')(f) && (f.status >= 500 || f.status < 400),
    kind: 'outcome_unknown',
    message: (f) =>
      `platformB answered ${said(f)} to the request to ${f.call.what}; the post may or may not exist, so it is not re-sent.`,
  },
  {
    name: 'token expired or invalid',
    when: (f) => !is('oauth')(f) && f.status === 401,
    kind: 'expired_token',
    message: (f) => `platformB no longer accepts the access token (${said(f)}).`,
  },
  {
    name: 'duplicate content',
    when: (f) => f.status === 403 && DUPLICATE.test(f.detail),
    kind: 'duplicate',
    message: (f) => `platformB rejected the post as duplicate content (${said(f)}).`,
  },
  {
    name: 'forbidden (suspended app, missing scope)',
    when: (f) => !is('oauth')(f) && f.status === 403,
    kind: 'missing_scope',
    message: (f) =>
      `platformB denied the request to ${f.call.what} (${said(f)}); the member must reconnect to grant the needed permissions.`,
  },
  {
    name: 'rate limited',
    when: (f) => f.status === 429,
    kind: 'rate_limited',
    message: (f) => `platformB rate-limited the request to ${f.call.what}.`,
  },
  {
    name: 'platform outage',
    when: (f) => f.status >= 500 || f.status < 400,
    kind: 'unavailable',
    message: (f) => `platformB failed to ${f.call.what} (${said(f)}).`,
  },
  {
    name: 'other OAuth refusal',
    when: is('oauth'),
    kind: 'exchange_failed',
    message: (f) => `platformB refused to ${f.call.what} (${f.oauthError ?? said(f)}).`,
  },
  {
    name: 'content refused',
    when: () => true,
    kind: 'bad_request',
    message: (f) => `platformB rejected the request to ${f.call.what} (${said(f)}).`,
  },
];

/** The platform's own words from either problem shape (or an OAuth error body). */
function detailOf(json: unknown): { detail: string; oauthError: string | null } {
  const body = (json && typeof json === 'object' ? json : {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
  const errors = Array.isArray(body.errors) ? body.errors : [];
  const first = text((errors[0] as { message?: unknown } | undefined)?.message);
  const oauthError = text(body.error);
  const detail =
    text(body.detail) ?? first ?? text(body.title) ?? text(body.error_description) ?? oauthError ?? '';
  return { detail, oauthError };
}

/** x-rate-limit-reset is epoch seconds; null when absent or nonsense. */
export function resetAt(answer: HttpAnswer): number | null {
  const raw = Number(headerValue(answer.headers, 'x-rate-limit-reset'));
  return Number.isFinite(raw) && raw > 0 ? raw * 1000 : null;
}

export function failure(call: HttpCall, answer: HttpAnswer): PlatformError {
  const f: Failure = { call, status: answer.status, ...detailOf(answer.json) };
  const row = FAILURES.find((r) => r.when(f))!;
  return new PlatformError(row.kind, redact(call.secrets, row.message(f)), {
    status: answer.status,
    retryAt: row.kind === 'rate_limited' ? resetAt(answer) : null,
  });
}

import { PlatformError, type PlatformErrorKind } from '../platform.ts';
import { type CallKind, type HttpAnswer, type HttpCall, redact } from '../transport.ts';

/**
 * Every failure PLATFORM_A.md lists, as one table: the first row whose `when` matches decides
 * the kind and the message. Order matters: a create's 5xx is an unknown outcome before it is an
 * outage, and 401 REVOKED_ACCESS_TOKEN (65601) before any other 401. INVALID_ACCESS_TOKEN
 * (65600) is treated like an expired token: the service refreshes once, and when that fails the
 * member reconnects; only an explicit revocation marks the channel revoked.
 */
interface Failure {
  call: HttpCall;
  status: number;
  code: string | null;
  serviceCode: number | null;
  message: string | null;
  oauthError: string | null;
  oauthDescription: string | null;
  /** `<status> <code>: <message>` as far as the answer says. */
  detail: string;
}

interface Row {
  name: string;
  when: (f: Failure) => boolean;
  kind: PlatformErrorKind;
  message: (f: Failure) => string;
}

const is =
  (...kinds: CallKind[]) =>
  (f: Failure) =>
    kinds.includes(f.call.kind);
const rest = (f: Failure) => f.call.kind !== 'oauth';
const noClearAnswer = (f: Failure) => f.status >= 500 || f.status < 400;

export const FAILURES: readonly Row[] = [
  {
    name: 'OAuth rate limited',
    when: (f) => is('oauth')(f) && f.status === 429,
    kind: 'rate_limited',
    message: (f) => `platformA rate-limited the request to ${f.call.what}.`,
  },
  {
    name: 'OAuth outage',
    when: (f) => is('oauth')(f) && f.status >= 500,
    kind: 'unavailable',
    message: (f) => `platformA failed to ${f.call.what} (${f.status}).`,
  },
  {
    name: 'OAuth refusal',
    when: is('oauth'),
    kind: 'exchange_failed',
    message: (f) =>
      `platformA refused to ${f.call.what} (${f.oauthError ?? `HTTP ${f.status}`}${f.oauthDescription ? `: ${f.oauthDescription}` : ''}).`,
  },
  {
    name: 'create without a clear answer',
    when: (f) => is('create')(f) && noClearAnswer(f),
    kind: 'outcome_unknown',
    message: (f) =>
      `platformA answered ${f.detail} to the request to ${f.call.what}; the post may or may not exist, so it is not re-sent.`,
  },
  {
    name: 'access revoked by the member',
    when: (f) =>
      rest(f) &&
      f.status === 401 &&
      (f.code === 'REVOKED_ACCESS_TOKEN' || (f.code === null && f.serviceCode === 65601)),
    kind: 'revoked_token',
    message: (f) => `The member revoked Postkit's access on platformA (${f.detail}).`,
  },
  {
    name: 'token expired or invalid',
    when: (f) => rest(f) && f.status === 401,
    kind: 'expired_token',
    message: (f) => `platformA no longer accepts the access token (${f.detail}).`,
  },
  {
    name: 'missing permission',
    when: (f) => rest(f) && f.status === 403,
    kind: 'missing_scope',
    message: (f) =>
      `platformA denied the request to ${f.call.what} (${f.detail}); the member must reconnect to grant the needed permissions.`,
  },
  {
    name: 'duplicate post',
    when: (f) =>
      rest(f) && f.status === 422 && (f.code === 'DUPLICATE_POST' || /duplicate/i.test(f.message ?? '')),
    kind: 'duplicate',
    message: (f) => `platformA rejected the post as a duplicate (${f.detail}).`,
  },
  {
    name: 'API version no longer served',
    when: (f) => rest(f) && f.status === 426,
    kind: 'misconfigured',
    message: (f) =>
      `platformA does not accept the configured API version (${f.detail}); set PLATFORMA_API_VERSION to an active YYYYMM version.`,
  },
  {
    name: 'rate limited',
    when: (f) => rest(f) && f.status === 429,
    kind: 'rate_limited',
    message: (f) => `platformA rate-limited the request to ${f.call.what}.`,
  },
  {
    name: 'platform outage',
    when: (f) => rest(f) && noClearAnswer(f),
    kind: 'unavailable',
    message: (f) => `platformA failed to ${f.call.what} (${f.detail}).`,
  },
  {
    name: 'request refused',
    when: () => true,
    kind: 'bad_request',
    message: (f) => `platformA rejected the request to ${f.call.what} (${f.detail}).`,
  },
];

const text = (v: unknown) => (typeof v === 'string' ? v : null);

/** Maps a non-success answer to a PlatformError through the table above. */
export function failure(call: HttpCall, answer: HttpAnswer): PlatformError {
  const body = (answer.json && typeof answer.json === 'object' ? answer.json : {}) as Record<string, unknown>;
  const { status } = answer;
  const code = text(body.code);
  const message = text(body.message);
  const f: Failure = {
    call,
    status,
    code,
    serviceCode: typeof body.serviceErrorCode === 'number' ? body.serviceErrorCode : null,
    message,
    oauthError: text(body.error),
    oauthDescription: text(body.error_description),
    detail: `${status}${code ? ` ${code}` : ''}${message !== null ? `: ${message}` : ''}`,
  };
  const row = FAILURES.find((r) => r.when(f))!;
  return new PlatformError(row.kind, redact(call.secrets, row.message(f)), { status });
}

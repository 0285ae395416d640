import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { request } from 'undici';
import { PlatformError } from '../platform.ts';

/**
 * One HTTP exchange with platformA and the translation of its failures into PlatformError.
 * The kind of call decides what a failure means: a lost answer to a read or an upload is
 * transient (retry), a lost answer to the create is `outcome_unknown` (never re-sent).
 */
export type CallKind = 'oauth' | 'read' | 'upload' | 'create';

export interface HttpCall {
  kind: CallKind;
  /** What the call does, for messages, e.g. "create the post". */
  what: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer | Readable;
  timeoutMs: number;
  /** Values that must never appear in an error message: tokens, client secret, codes. */
  secrets: readonly (string | null | undefined)[];
}

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: unknown;
}

/** Sends one request and returns whatever HTTP answer came back; throws only when none did. */
export async function send(call: HttpCall): Promise<HttpAnswer> {
  let response: Awaited<ReturnType<typeof request>>;
  let text: string;
  try {
    response = await request(call.url, {
      method: call.method,
      headers: call.headers,
      body: call.body,
      signal: AbortSignal.timeout(call.timeoutMs),
      headersTimeout: call.timeoutMs,
      bodyTimeout: call.timeoutMs,
    });
    text = await response.body.text();
  } catch (err) {
    throw transportFailure(call, err);
  }
  let json: unknown = null;
  if (text.trim() !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  return { status: response.statusCode, headers: response.headers, text, json };
}

function transportFailure(call: HttpCall, err: unknown): PlatformError {
  const code = (err as { code?: unknown })?.code;
  const name = (err as { name?: unknown })?.name;
  const reason =
    typeof code === 'string' ? code : name === 'TimeoutError' ? 'timeout' : String(name ?? 'network error');
  // Only the error's code travels on as the cause: undici errors can carry request details.
  const cause = new Error(reason);
  if (call.kind === 'create') {
    return new PlatformError(
      'outcome_unknown',
      `platformA did not answer the request to ${call.what} (${reason}); the post may or may not exist, so it is not re-sent.`,
      { cause },
    );
  }
  if (typeof code === 'string' && code === 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH') {
    return new PlatformError('bad_request', `The media file's size differs from its record (${call.what}).`, {
      cause,
    });
  }
  return new PlatformError('unavailable', `platformA could not be reached to ${call.what} (${reason}).`, {
    cause,
  });
}

interface RestErrorBody {
  code?: unknown;
  serviceErrorCode?: unknown;
  message?: unknown;
  error?: unknown;
  error_description?: unknown;
}

/**
 * Maps a non-success answer to a PlatformError. 401 INVALID_ACCESS_TOKEN (65600) is treated
 * like an expired token: the service refreshes once, and when that fails the member
 * reconnects; only an explicit REVOKED_ACCESS_TOKEN (65601) marks the channel revoked.
 */
export function failure(call: HttpCall, answer: HttpAnswer): PlatformError {
  const { status } = answer;
  const body = (answer.json && typeof answer.json === 'object' ? answer.json : {}) as RestErrorBody;
  const opts = { status };

  if (call.kind === 'oauth') {
    if (status === 429)
      return new PlatformError(
        'rate_limited',
        redact(call, `platformA rate-limited the request to ${call.what}.`),
        opts,
      );
    if (status >= 500)
      return new PlatformError(
        'unavailable',
        redact(call, `platformA failed to ${call.what} (${status}).`),
        opts,
      );
    const error = typeof body.error === 'string' ? body.error : `HTTP ${status}`;
    const description = typeof body.error_description === 'string' ? `: ${body.error_description}` : '';
    return new PlatformError(
      'exchange_failed',
      redact(call, `platformA refused to ${call.what} (${error}${description}).`),
      opts,
    );
  }

  const code = typeof body.code === 'string' ? body.code : null;
  const serviceCode = typeof body.serviceErrorCode === 'number' ? body.serviceErrorCode : null;
  const detail = `${status}${code ? ` ${code}` : ''}${typeof body.message === 'string' ? `: ${body.message}` : ''}`;
  const say = (text: string) => redact(call, text);

  if (call.kind === 'create' && (status >= 500 || status < 400)) {
    return new PlatformError(
      'outcome_unknown',
      say(
        `platformA answered ${detail} to the request to ${call.what}; the post may or may not exist, so it is not re-sent.`,
      ),
      opts,
    );
  }
  if (status === 401) {
    if (code === 'REVOKED_ACCESS_TOKEN' || (code === null && serviceCode === 65601)) {
      return new PlatformError(
        'revoked_token',
        say(`The member revoked Postkit's access on platformA (${detail}).`),
        opts,
      );
    }
    return new PlatformError(
      'expired_token',
      say(`platformA no longer accepts the access token (${detail}).`),
      opts,
    );
  }
  if (status === 403) {
    return new PlatformError(
      'missing_scope',
      say(
        `platformA denied the request to ${call.what} (${detail}); the member must reconnect to grant the needed permissions.`,
      ),
      opts,
    );
  }
  if (status === 422 && (code === 'DUPLICATE_POST' || /duplicate/i.test(String(body.message ?? '')))) {
    return new PlatformError(
      'duplicate',
      say(`platformA rejected the post as a duplicate (${detail}).`),
      opts,
    );
  }
  if (status === 426) {
    return new PlatformError(
      'misconfigured',
      say(
        `platformA does not accept the configured API version (${detail}); set PLATFORMA_API_VERSION to an active YYYYMM version.`,
      ),
      opts,
    );
  }
  if (status === 429)
    return new PlatformError(
      'rate_limited',
      say(`platformA rate-limited the request to ${call.what}.`),
      opts,
    );
  if (status >= 500 || status < 400) {
    return new PlatformError('unavailable', say(`platformA failed to ${call.what} (${detail}).`), opts);
  }
  return new PlatformError(
    'bad_request',
    say(`platformA rejected the request to ${call.what} (${detail}).`),
    opts,
  );
}

/** Sends and insists on one of `ok` statuses. */
export async function sendExpecting(call: HttpCall, ok: readonly number[]): Promise<HttpAnswer> {
  const answer = await send(call);
  if (!ok.includes(answer.status)) throw failure(call, answer);
  return answer;
}

/** Removes secrets from a message and caps its length (platform messages are untrusted text). */
export function redact(call: Pick<HttpCall, 'secrets'>, message: string): string {
  let out = message;
  for (const secret of call.secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out.length > 500 ? `${out.slice(0, 497)}...` : out;
}

export interface RetryPolicy {
  /** Total attempts, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Multiplies every delay (PLATFORMA_BACKOFF_SCALE; tests shrink it). */
  scale: number;
  sleep: (ms: number) => Promise<void>;
}

/** Retries a call while it fails with a retryable PlatformError (429, 5xx, no answer). */
export async function withRetries<T>(policy: RetryPolicy, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof PlatformError) || !err.retryable || attempt >= policy.attempts) throw err;
      // Exponential backoff with jitter; platformA sends no Retry-After on 429.
      const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      await policy.sleep(ceiling * (0.5 + Math.random() * 0.5) * policy.scale);
    }
  }
}

export function headerValue(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name.toLowerCase()];
  if (Array.isArray(value)) return value[0] ?? null;
  return value ?? null;
}

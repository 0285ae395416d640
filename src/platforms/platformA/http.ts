import { PlatformError } from '../platform.ts';
import { exchange, type HttpAnswer, type HttpCall, NoAnswer } from '../transport.ts';
import { failure } from './errors.ts';

/**
 * One HTTP exchange with platformA (over the shared transport) and what a lost answer means:
 * the kind of call decides it. A lost answer to a read or an upload is transient (retry), a lost
 * answer to the create is `outcome_unknown` (never re-sent). Answers that came back are mapped
 * by the failure table in errors.ts.
 */
export type { CallKind, HttpAnswer, HttpCall } from '../transport.ts';
export { headerValue } from '../transport.ts';
export { failure } from './errors.ts';

/** Sends one request and returns whatever HTTP answer came back; throws only when none did. */
export async function send(call: HttpCall): Promise<HttpAnswer> {
  try {
    return await exchange(call);
  } catch (err) {
    if (err instanceof NoAnswer) throw transportFailure(call, err.reason);
    throw err;
  }
}

function transportFailure(call: HttpCall, reason: string): PlatformError {
  // Only the error's code travels on as the cause: undici errors can carry request details.
  const cause = new Error(reason);
  if (call.kind === 'create') {
    return new PlatformError(
      'outcome_unknown',
      `platformA did not answer the request to ${call.what} (${reason}); the post may or may not exist, so it is not re-sent.`,
      { cause },
    );
  }
  if (reason === 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH') {
    return new PlatformError('bad_request', `The media file's size differs from its record (${call.what}).`, {
      cause,
    });
  }
  return new PlatformError('unavailable', `platformA could not be reached to ${call.what} (${reason}).`, {
    cause,
  });
}

/** Sends and insists on one of `ok` statuses. */
export async function sendExpecting(call: HttpCall, ok: readonly number[]): Promise<HttpAnswer> {
  const answer = await send(call);
  if (!ok.includes(answer.status)) throw failure(call, answer);
  return answer;
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

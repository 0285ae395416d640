import { PlatformError } from '../platform.ts';
import { exchange, type HttpAnswer, type HttpCall, NoAnswer } from '../transport.ts';
import { failure } from './errors.ts';
import type { ResolvedOptions } from './options.ts';

/**
 * platformB calls: a lost answer to a read or an upload is transient (retried), a lost answer
 * to a create is `outcome_unknown` (never re-sent), a lost answer to a token request is
 * transient too but never retried here (refresh tokens rotate: see oauth.ts).
 */
export async function sendExpecting(call: HttpCall, ok: readonly number[]): Promise<HttpAnswer> {
  let answer: HttpAnswer;
  try {
    answer = await exchange(call);
  } catch (err) {
    if (!(err instanceof NoAnswer)) throw err;
    const cause = new Error(err.reason);
    if (call.kind === 'create') {
      throw new PlatformError(
        'outcome_unknown',
        `platformB did not answer the request to ${call.what} (${err.reason}); the post may or may not exist, so it is not re-sent.`,
        { cause },
      );
    }
    throw new PlatformError(
      'unavailable',
      `platformB could not be reached to ${call.what} (${err.reason}).`,
      { cause },
    );
  }
  if (!ok.includes(answer.status)) throw failure(call, answer);
  return answer;
}

/**
 * Retries while a call fails retryably: a 429 waits until its `x-rate-limit-reset` (no
 * Retry-After on this platform) unless that is further off than `maxRateLimitWaitMs`; 5xx and
 * lost answers back off exponentially with jitter.
 */
export async function withRetries<T>(opts: ResolvedOptions, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof PlatformError) || !err.retryable || attempt >= opts.retryAttempts) throw err;
      const backoff = Math.min(8_000, 500 * 2 ** (attempt - 1)) * (0.5 + Math.random() * 0.5);
      let wait = backoff * opts.backoffScale;
      if (err.retryAt !== null) {
        const untilReset = err.retryAt - opts.now();
        if (untilReset > opts.maxRateLimitWaitMs) throw err;
        wait = Math.max(wait, untilReset);
      }
      await opts.sleep(wait);
    }
  }
}

export function getCall(opts: ResolvedOptions, accessToken: string, what: string, path: string): HttpCall {
  return {
    kind: 'read',
    what,
    method: 'GET',
    url: `${opts.apiUrl}${path}`,
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    timeoutMs: opts.requestTimeoutMs,
    secrets: [accessToken],
  };
}

/** A JSON object from an answer's `data`, or an `unavailable` error naming the call. */
export function dataOf(answer: HttpAnswer, what: string): Record<string, unknown> {
  const data = (answer.json as { data?: unknown } | null)?.data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new PlatformError('unavailable', `platformB answered the request to ${what} without data.`, {
      status: answer.status,
    });
  }
  return data as Record<string, unknown>;
}

import { request } from 'undici';
import type { AppDeps } from '../../context.ts';

export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
}

/** One HTTP attempt through the SSRF-safe dispatcher; never throws. */
export async function sendAttempt(
  deps: AppDeps,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<AttemptOutcome> {
  const timeoutMs = deps.config.WEBHOOK_TIMEOUT_MS;
  try {
    const res = await request(url, {
      method: 'POST',
      headers,
      body,
      dispatcher: deps.webhookDispatcher,
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Only the status matters; drain a little so the connection can be reused, then drop it.
    await res.body.dump({ limit: 64 * 1024 }).catch(() => {});
    const code = res.statusCode;
    if (code >= 200 && code < 300) return { statusCode: code, error: null };
    if (code >= 300 && code < 400)
      return { statusCode: code, error: `Receiver answered ${code}; redirects are not followed.` };
    return { statusCode: code, error: `Receiver answered ${code}.` };
  } catch (err) {
    return { statusCode: null, error: describeNetworkError(err, timeoutMs) };
  }
}

function describeNetworkError(err: unknown, timeoutMs: number): string {
  const e = err as {
    name?: string;
    code?: string;
    message?: string;
    summary?: string;
    cause?: { code?: string };
  };
  // The summary leaves out the address a name resolved to (safe-dispatcher.ts).
  if (e?.name === 'BlockedTargetError') return `Refused: ${e.summary ?? e.message}.`;
  if (
    e?.name === 'TimeoutError' ||
    e?.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e?.code === 'UND_ERR_BODY_TIMEOUT'
  )
    return `No response within ${timeoutMs} ms.`;
  if (e?.code === 'UND_ERR_CONNECT_TIMEOUT') return `Could not connect within ${timeoutMs} ms.`;
  const code = e?.code ?? e?.cause?.code;
  const message = (e?.message ?? String(err)).slice(0, 200);
  return code ? `${code}: ${message}` : message;
}

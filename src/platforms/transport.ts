import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { request } from 'undici';

/**
 * One HTTP exchange with a platform, platform-neutral: it returns whatever answer came back
 * and reports only whether none did. Each adapter decides what an answer means (its error
 * table); the kind of call decides what a lost answer means.
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

/** No answer came back: `reason` is the transport's code only (undici errors can carry request details). */
export class NoAnswer extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.name = 'NoAnswer';
    this.reason = reason;
  }
}

/** Sends one request and returns whatever HTTP answer came back; throws NoAnswer when none did. */
export async function exchange(call: HttpCall): Promise<HttpAnswer> {
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
    const code = (err as { code?: unknown })?.code;
    const name = (err as { name?: unknown })?.name;
    throw new NoAnswer(
      typeof code === 'string' ? code : name === 'TimeoutError' ? 'timeout' : String(name ?? 'network error'),
    );
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

/** Removes secrets from a message and caps its length (platform messages are untrusted text). */
export function redact(secrets: HttpCall['secrets'], message: string): string {
  let out = message;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out.length > 500 ? `${out.slice(0, 497)}...` : out;
}

export function headerValue(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name.toLowerCase()];
  if (Array.isArray(value)) return value[0] ?? null;
  return value ?? null;
}

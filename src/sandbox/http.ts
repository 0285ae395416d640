import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * What every lane's handlers get, whichever platform they emulate; each lane's context adds
 * its own state, faults and settings (src/sandbox/<id>/lane.ts).
 */
export interface LaneCtx {
  /** e.g. http://127.0.0.1:41234 (known once listening). */
  baseUrl: string;
  now(): number;
  /** Redirect straight back with a code instead of showing the consent page (one choice for every lane). */
  autoApprove: boolean;
}

export interface Exchange<C extends LaneCtx = LaneCtx> {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Regex captures of the route's path pattern (decoded). */
  params: string[];
  ctx: C;
}

export interface Route<C extends LaneCtx = LaneCtx, R extends string = string> {
  method: string;
  path: RegExp;
  /** The lane's route name that faults and latency target; 'admin' and 'page' are never faulted. */
  name: R | 'admin' | 'page';
  /** Extra match on the query, e.g. `action=initializeUpload`. */
  query?: (url: URL) => boolean;
  handle(ex: Exchange<C>): Promise<void> | void;
}

/** A deliberate error answer; `body` is sent as JSON. */
export class HttpError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;
  constructor(status: number, body: unknown, headers: Record<string, string> = {}) {
    super(typeof body === 'object' && body && 'message' in body ? String(body.message) : `HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** A REST error `{status, serviceErrorCode?, code?, message}` (platformA's shape; the shared body readers below answer with it on every lane). */
export function restError(
  status: number,
  message: string,
  code?: string,
  serviceErrorCode?: number,
): HttpError {
  return new HttpError(status, {
    status,
    ...(serviceErrorCode === undefined ? {} : { serviceErrorCode }),
    ...(code === undefined ? {} : { code }),
    message,
  });
}

/** The OAuth error shape: `{error, error_description}`. */
export function oauthError(status: number, error: string, description: string): HttpError {
  return new HttpError(status, { error, error_description: description });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendHtml(res: ServerResponse, status: number, html: string) {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
  });
  res.end(html);
}

export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-length': '0', ...headers });
  res.end();
}

export function redirect(res: ServerResponse, location: string) {
  res.writeHead(302, { location, 'content-length': '0', 'cache-control': 'no-store' });
  res.end();
}

export async function readBody(req: IncomingMessage, limit = 1_048_576): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw restError(413, `Request body over ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Consumes whatever is left of a request body, so an early answer still reaches the client. */
export async function drain(req: IncomingMessage): Promise<void> {
  if (req.readableEnded) return;
  for await (const _ of req) {
    // discard
  }
}

export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = req.headers['content-type'] ?? '';
  if (!type.includes('application/json')) throw restError(415, 'Content-Type must be application/json');
  const raw = (await readBody(req)).toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw restError(400, 'Request body is not valid JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw restError(400, 'Request body must be a JSON object');
  return parsed as Record<string, unknown>;
}

export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams((await readBody(req)).toString('utf8'));
}

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

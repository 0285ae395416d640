import type { ServerResponse } from 'node:http';
import type { FaultSpec } from '../fault-board.ts';
import { HttpError, sendJson } from '../http.ts';
import type { PlatformBFault, PlatformBRoute } from './faults.ts';
import type { Exchange } from './lane.ts';
import type { BToken } from './state.ts';

/** The problem shape `{title, detail, type, status}`. */
export function problem(status: number, title: string, detail: string, headers?: Record<string, string>) {
  return new HttpError(status, { title, detail, type: 'about:blank', status }, headers);
}

const TITLES: Record<number, string> = {
  400: 'Invalid Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found Error',
  429: 'Too Many Requests',
};

/** x-rate-limit-* headers of a refused call: the reset is epoch seconds. */
export const rateHeaders = (limit: number, resetAtMs: number) => ({
  'x-rate-limit-limit': String(limit),
  'x-rate-limit-remaining': '0',
  'x-rate-limit-reset': String(Math.ceil(resetAtMs / 1000)),
});

/** An injected failure, shaped like platformB's own answer for that status. */
export function sendBFault(
  res: ServerResponse,
  route: PlatformBRoute,
  fault: FaultSpec<PlatformBFault>,
  now: number,
) {
  const status = fault.status!;
  if (route === 'token' || route === 'authorize') {
    const error =
      fault.code ?? (status === 401 ? 'invalid_client' : status >= 500 ? 'server_error' : 'invalid_request');
    return sendJson(res, status, { error, error_description: fault.message ?? `Injected ${status}` });
  }
  if (status >= 500) {
    // The other problem shape, so the adapter reads both.
    return sendJson(res, status, { errors: [{ message: fault.message ?? 'Internal error', code: 131 }] });
  }
  const headers = status === 429 ? rateHeaders(100, now + (fault.resetInSeconds ?? 1) * 1000) : {};
  const title = TITLES[status] ?? 'Error';
  sendJson(res, status, { title, detail: fault.message ?? title, type: 'about:blank', status }, headers);
}

/** The bearer token of a request, or 401. */
export function authenticate(ex: Exchange): BToken {
  const { state } = ex.ctx;
  const match = /^Bearer\s+(\S+)$/i.exec(ex.req.headers.authorization ?? '');
  const token = match ? state.tokens.get(match[1]!) : undefined;
  if (!token || token.revoked || token.expiresAt <= ex.ctx.now())
    throw problem(401, 'Unauthorized', 'Unauthorized');
  return token;
}

export function requireScope(token: BToken, scope: string): void {
  if (!token.scopes.includes(scope)) {
    throw problem(403, 'Forbidden', `Missing scope ${scope}: you are not permitted to perform this action.`);
  }
}

/** Counts a create or delete in the member's window; 429 with the reset once over the limit. */
export function spend(ex: Exchange, token: BToken, what: 'creates' | 'deletes'): void {
  const { state, settings } = ex.ctx;
  const now = ex.ctx.now();
  const windowMs = settings.windowSeconds * 1000;
  let w = state.windows.get(token.userId);
  if (!w || w.start + windowMs <= now) {
    w = { start: now, creates: 0, deletes: 0 };
    state.windows.set(token.userId, w);
  }
  const limit = what === 'creates' ? settings.createLimit : settings.deleteLimit;
  if (w[what] >= limit) {
    throw problem(429, 'Too Many Requests', 'Too Many Requests', rateHeaders(limit, w.start + windowMs));
  }
  w[what]++;
}

/** Weighted length (PLATFORM_B.md, decided): code points, every URL counts 23. */
export function weightedLength(text: string): number {
  let urls = 0;
  const rest = text.replace(/https?:\/\/[^\s]+/gi, () => {
    urls++;
    return '';
  });
  return urls * 23 + [...rest].length;
}

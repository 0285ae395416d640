import { restError } from '../http.ts';
import type { Exchange } from './lane.ts';
import type { AToken } from './state.ts';

/** The bearer token of a request, or the platform's 401 (65600 invalid, 65601 revoked, 65602 expired). */
export function authenticate(ex: Exchange): AToken {
  const header = ex.req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw restError(401, 'Empty oauth2_access_token', undefined, 401);
  const token = ex.ctx.state.tokens.get(match[1]!);
  if (!token) throw restError(401, 'Invalid access token', 'INVALID_ACCESS_TOKEN', 65600);
  if (token.revoked) {
    throw restError(
      401,
      'The token used in the request has been revoked by the user',
      'REVOKED_ACCESS_TOKEN',
      65601,
    );
  }
  if (token.expiresAt <= ex.ctx.now()) {
    throw restError(401, 'The token used in the request has expired', 'EXPIRED_ACCESS_TOKEN', 65602);
  }
  return token;
}

export function requireScope(token: AToken, scope: string, what: string): void {
  if (!token.scopes.includes(scope)) {
    throw restError(403, `Not enough permissions to access: ${what} (needs ${scope})`, 'ACCESS_DENIED', 100);
  }
}

/** Versioned REST calls need `LinkedIn-Version: YYYYMM` (active) and Rest.li protocol 2.0.0. */
export function requireRestHeaders(ex: Exchange): void {
  const version = ex.req.headers['linkedin-version'];
  if (typeof version !== 'string' || version === '') {
    throw restError(
      426,
      'A version must be present. Please specify a version by adding the LinkedIn-Version header.',
      'VERSION_MISSING',
    );
  }
  if (
    !isActiveVersion(version, ex.ctx.settings.minVersion, ex.ctx.now()) ||
    ex.ctx.faults.retiredVersions.has(version)
  ) {
    throw restError(426, `Requested version ${version} is not active`, 'NONEXISTENT_VERSION');
  }
  if (ex.req.headers['x-restli-protocol-version'] !== '2.0.0') {
    throw restError(
      400,
      'X-Restli-Protocol-Version: 2.0.0 is required for this API',
      'MISSING_PROTOCOL_VERSION',
    );
  }
}

function isActiveVersion(version: string, min: string, now: number): boolean {
  const m = /^(\d{4})(\d{2})$/.exec(version);
  if (!m) return false;
  const month = Number(m[2]);
  if (month < 1 || month > 12) return false;
  const d = new Date(now);
  const current = `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  return version >= min && version <= current;
}

export const memberUrn = (sub: string) => `urn:li:person:${sub}`;

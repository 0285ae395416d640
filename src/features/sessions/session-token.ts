import { safeEqual, sha256Hex } from '../../lib/hash.ts';
import { randomBase62 } from '../../lib/ids.ts';

/** The cookie that carries a console session's secret (httpOnly, SameSite=Strict). */
export const SESSION_COOKIE = 'postkit_session';
/** The header a cookie-authenticated POST, PUT, PATCH or DELETE must carry (docs/security.md, CSRF). */
export const CSRF_HEADER = 'x-csrf-token';
/** A session lasts this long from sign-in; then the person signs in again. */
export const SESSION_TTL_MS = 14 * 24 * 3_600_000;

const TOKEN_PREFIX = 'kit_ses_';

/** A new session secret: 256 bits, in the cookie only; the database keeps its digest. */
export const newSessionToken = () => `${TOKEN_PREFIX}${randomBase62(43)}`;

export const isSessionToken = (value: string) => value.startsWith(TOKEN_PREFIX) && value.length <= 100;

export const sessionDigest = (token: string) => sha256Hex(token);

/**
 * The session's CSRF token, derived from its secret (so nothing more is stored): a page of
 * another origin cannot read it (no CORS on the API, and the cookie is httpOnly), and knowing
 * it tells nothing about the secret.
 */
export const csrfTokenOf = (token: string) => sha256Hex(`csrf:${token}`);

export const csrfMatches = (token: string, presented: string | undefined) =>
  presented !== undefined && safeEqual(csrfTokenOf(token), presented);

/** The session secret in a Cookie header, if any. */
export function sessionTokenIn(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return value === '' ? undefined : value;
  }
  return undefined;
}

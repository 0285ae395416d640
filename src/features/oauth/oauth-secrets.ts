import { hash } from 'node:crypto';
import { sha256Hex } from '../../lib/hash.ts';
import { randomBase62 } from '../../lib/ids.ts';

/*
 * The opaque secrets of Postkit's OAuth server. Each is 43 base62 characters from the CSPRNG
 * (~256 bits) behind a prefix that says what it is (secret scanners can match them, and the
 * auth hook tells an access token from an API key without a lookup). Only SHA-256 digests
 * are stored.
 */
export const ACCESS_TOKEN_PREFIX = 'kit_at_';
export const REFRESH_TOKEN_PREFIX = 'kit_rt_';
export const CODE_PREFIX = 'kit_ac_';

export type SecretKind = 'code' | 'access' | 'refresh';
const PREFIX: Record<SecretKind, string> = {
  code: CODE_PREFIX,
  access: ACCESS_TOKEN_PREFIX,
  refresh: REFRESH_TOKEN_PREFIX,
};

export const newSecret = (kind: SecretKind) => PREFIX[kind] + randomBase62(43);
export const secretDigest = (secret: string) => sha256Hex(secret);
export const isAccessToken = (token: string) => token.startsWith(ACCESS_TOKEN_PREFIX);

/** Lifetimes: a code is exchanged at once; access is short; refresh rotates at every use. */
export const CODE_TTL_MS = 5 * 60_000;
export const ACCESS_TTL_MS = 15 * 60_000;
export const REFRESH_TTL_MS = 30 * 24 * 3_600_000;
/** How long the consent page may take before the authorization request must start over. */
export const REQUEST_TTL_MS = 10 * 60_000;

/** RFC 7636 section 4.1: 43-128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** PKCE S256 (RFC 7636 section 4.6): BASE64URL(SHA256(ASCII(code_verifier))) equals the challenge. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  return hash('sha256', verifier, 'base64url') === challenge;
}

/** A challenge is the base64url of a SHA-256 digest: 43 characters. */
export const isS256Challenge = (challenge: string) => /^[A-Za-z0-9_-]{43}$/.test(challenge);

import { createHash, randomBytes } from 'node:crypto';

/**
 * PKCE (RFC 7636) with the S256 method, platform-neutral: the connect flow makes a pair,
 * keeps the verifier (sealed) with its state and hands the challenge to
 * `Platform.authorizationUrl`; the exchange later sends the verifier.
 */

/** 32 random bytes as base64url: a 43-character verifier, inside RFC 7636's 43-128 bounds. */
export function createCodeVerifier(): string {
  return randomBytes(32).toString('base64url');
}

/** BASE64URL(SHA256(ASCII(verifier))), no padding. */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function createPkcePair(): { verifier: string; challenge: string } {
  const verifier = createCodeVerifier();
  return { verifier, challenge: pkceChallenge(verifier) };
}

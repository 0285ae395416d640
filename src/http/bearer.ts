/** `Bearer <token>`, any case, spaces around the token allowed (RFC 6750 with some leniency). */
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The token of an Authorization header, or null when it is not `Bearer <token>`. Every
 * authenticated request parses one: the common shape (exactly "Bearer " and a token of visible
 * ASCII) is read without the regex, which answers every other shape the same as before.
 */
export function bearerTokenOf(header: string): string | null {
  if (header.length > 7 && header.startsWith('Bearer ')) {
    let i = 7;
    while (i < header.length) {
      const c = header.charCodeAt(i);
      if (c <= 32 || c >= 127) break;
      i++;
    }
    if (i === header.length) return header.slice(7);
  }
  const match = BEARER.exec(header);
  return match ? match[1]! : null;
}

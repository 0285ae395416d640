import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * CSPRNG bytes drawn a page at a time and each used once: an id no longer allocates a buffer
 * and calls into OpenSSL of its own (a burst of publishes makes an event id per post).
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let next = 0;

function randomByte(): number {
  if (next === pool.length) {
    pool = randomBytes(POOL_BYTES);
    next = 0;
  }
  return pool[next++]!;
}

/** `n` base62 characters from a CSPRNG, with no modulo bias (rejection sampling). */
export function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

export const ID_PREFIXES = {
  account: 'acc',
  key: 'key',
  member: 'mem',
  invitation: 'inv',
  comment: 'cmt',
  audit: 'aud',
  session: 'ses',
  brand: 'brd',
  voice: 'voi',
  channel: 'chn',
  media: 'med',
  post: 'pst',
  postGroup: 'pgr',
  postScore: 'psc',
  metric: 'met',
  webhook: 'whk',
  delivery: 'dlv',
  event: 'evt',
  history: 'hst',
  series: 'ser',
  plan: 'pln',

  oauthClient: 'mcp',
  oauthGrant: 'grt',
  oauthRequest: 'oar',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/** Opaque ids: a resource prefix and 20 random base62 characters (~119 bits). */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${randomBase62(20)}`;
}

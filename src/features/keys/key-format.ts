import { crc32 } from 'node:zlib';
import { randomBase62 } from '../../lib/ids.ts';

/**
 * API keys: `kit_sk_` + 32 base62 characters (~190 bits) + a 6-character base62 CRC32
 * of everything before it. The fixed prefix lets secret scanners match leaked keys; the
 * checksum rejects typos and garbage without touching the database.
 */
export const KEY_PREFIX = 'kit_sk_';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^kit_sk_[0-9A-Za-z]{38}$/;
/** How many leading characters identify a key in listings (`keyPrefix`). */
export const KEY_DISPLAY_LENGTH = KEY_PREFIX.length + 8;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function checksum(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function generateApiKey(): string {
  const body = KEY_PREFIX + randomBase62(RANDOM_LENGTH);
  return body + checksum(body);
}

/** True when the string has the key shape and a matching checksum. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  return checksum(body) === key.slice(-CHECKSUM_LENGTH);
}

export const displayPrefix = (key: string) => key.slice(0, KEY_DISPLAY_LENGTH);

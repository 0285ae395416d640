/**
 * Letter, digit and capital by code point, remembered: the scans that walk a post by code point
 * (names.ts) asked a Unicode regex once per non-ASCII character (’, é, — in most posts), and the
 * answer depends on the code point alone. A lone surrogate reads as itself: neither.
 */

const WORD_POINT = /^[\p{L}\p{N}]$/u;
const UPPER_POINT = /^\p{Lu}$/u;

const KNOWN = 1;
const WORD = 2;
const UPPER = 4;
/** Classes of the code points below U+20000 (0 not yet known); the rest are asked each time (rare). */
const CLASSES = new Uint8Array(0x20000);

function classOf(cp: number): number {
  const ch = String.fromCodePoint(cp);
  return KNOWN | (WORD_POINT.test(ch) ? WORD : 0) | (UPPER_POINT.test(ch) ? UPPER : 0);
}

function classes(cp: number): number {
  if (cp >= 0x20000) return classOf(cp);
  let c = CLASSES[cp]!;
  if (c === 0) {
    c = classOf(cp);
    CLASSES[cp] = c;
  }
  return c;
}

/** A letter or a digit (`/[\p{L}\p{N}]/u`). */
export function isWordPoint(cp: number): boolean {
  if (cp < 128) return (cp >= 48 && cp <= 57) || ((cp | 32) >= 97 && (cp | 32) <= 122);
  return (classes(cp) & WORD) !== 0;
}

/** A capital (`/\p{Lu}/u`). */
export function isUpperPoint(cp: number): boolean {
  if (cp < 128) return cp >= 65 && cp <= 90;
  return (classes(cp) & UPPER) !== 0;
}

/** Per code unit: 0 not yet known, 1 a letter or digit, 2 neither. ASCII is filled at once. */
const UNIT_WORD = new Uint8Array(0x10000);
for (let c = 0; c < 128; c++) UNIT_WORD[c] = isWordPoint(c) ? 1 : 2;

/**
 * A code unit alone is a letter or a digit (`/[\p{L}\p{N}]/u` on that one unit: a surrogate is
 * neither), read from a table: the scans of every character of a post call it per unit.
 */
export function isWordUnit(c: number): boolean {
  let k = UNIT_WORD[c]!;
  if (k === 0) {
    k = isWordPoint(c) ? 1 : 2;
    UNIT_WORD[c] = k;
  }
  return k === 1;
}

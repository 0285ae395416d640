/**
 * How platformB counts a part's length, published with the client so everyone counts the same
 * way: the API's limits and refusals (src/platforms/platformB/text.ts re-exports these), the
 * console's live counter, and any program that uses this client. PLATFORM_B.md decides it:
 * every code point counts 1 and every URL counts 23 whatever its length, against 280.
 */
export const PLATFORM_B_MAX_TEXT = 280;
export const PLATFORM_B_URL_WEIGHT = 23;
const URL = /https?:\/\/[^\s]+/gi;

/** A platformB part's weighted length. */
export function platformBWeightedLength(text: string): number {
  let length = 0;
  let last = 0;
  for (const match of text.matchAll(URL)) {
    length += Array.from(text.slice(last, match.index)).length + PLATFORM_B_URL_WEIGHT;
    last = match.index + match[0].length;
  }
  return length + Array.from(text.slice(last)).length;
}

/** The index in `text` where `limit` weighted characters run out (text.length when it fits). */
export function platformBOverflowIndex(text: string, limit = PLATFORM_B_MAX_TEXT): number {
  if (platformBWeightedLength(text) <= limit) return text.length;
  const urls = new Map([...text.matchAll(URL)].map((m) => [m.index, m[0].length]));
  let length = 0;
  let i = 0;
  while (i < text.length) {
    const url = urls.get(i);
    const step = url === undefined ? 1 : PLATFORM_B_URL_WEIGHT;
    if (length + step > limit) return i;
    length += step;
    i += url ?? String.fromCodePoint(text.codePointAt(i)!).length;
  }
  return text.length;
}

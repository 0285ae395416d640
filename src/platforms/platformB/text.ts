/**
 * platformB's text limit is 280 weighted characters. Decided (PLATFORM_B.md): every code point
 * counts 1 and every URL counts 23, whatever its length (the platform shortens links).
 */
export const PLATFORM_B_MAX_TEXT = 280;
const URL_WEIGHT = 23;
const URL = /https?:\/\/[^\s]+/gi;

export function weightedLength(text: string): number {
  let length = 0;
  let rest = text;
  for (const match of text.matchAll(URL)) {
    length += URL_WEIGHT;
    rest = rest.replace(match[0], '');
  }
  return length + [...rest].length;
}

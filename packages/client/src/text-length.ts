/**
 * How a platform counts a part's length, published with the client so everyone counts the same
 * way: the API's limits and refusals (src/platforms/profile.ts reads these), the console's live
 * counter, and any program that uses this client. Which rule and which limit a platform uses is
 * the platform's profile, published by `GET /v1/meta` (`platforms[].parts`): pass its
 * `counting` here.
 *
 * - `unit`: `utf16` counts UTF-16 code units (an emoji is 2), `codePoint` code points (1);
 * - `urlWeight`: when set, every http(s) URL counts this much whatever its length (a platform
 *   that shortens links), and the rest counts by `unit`.
 */
export interface TextCounting {
  unit: 'utf16' | 'codePoint';
  urlWeight: number | null;
}

const URL = /https?:\/\/[^\s]+/gi;

const plainLength = (unit: TextCounting['unit'], text: string) =>
  unit === 'utf16' ? text.length : Array.from(text).length;

/** A part's length counted the platform's way. */
export function countedLength(counting: TextCounting, text: string): number {
  const { unit, urlWeight } = counting;
  if (urlWeight === null) return plainLength(unit, text);
  let length = 0;
  let last = 0;
  for (const match of text.matchAll(URL)) {
    length += plainLength(unit, text.slice(last, match.index)) + urlWeight;
    last = match.index + match[0].length;
  }
  return length + plainLength(unit, text.slice(last));
}

/** The index in `text` where `limit` counted characters run out (text.length when it fits). */
export function overflowIndex(counting: TextCounting, text: string, limit: number): number {
  if (countedLength(counting, text) <= limit) return text.length;
  const urls =
    counting.urlWeight === null
      ? new Map<number, number>()
      : new Map([...text.matchAll(URL)].map((m) => [m.index, m[0].length]));
  let length = 0;
  let i = 0;
  while (i < text.length) {
    const url = urls.get(i);
    const char = String.fromCodePoint(text.codePointAt(i)!).length;
    const step = url !== undefined ? counting.urlWeight! : counting.unit === 'utf16' ? char : 1;
    if (length + step > limit) return i;
    length += step;
    i += url ?? char;
  }
  return text.length;
}

/** How `countedLength` counts, in words for people ("weighted characters (a URL counts 23)"). */
export function countingWords(counting: TextCounting): string {
  return counting.urlWeight === null
    ? 'characters'
    : `weighted characters (a URL counts ${counting.urlWeight})`;
}

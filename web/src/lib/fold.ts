/**
 * Where platformA's feed card folds a post behind "…see more". The card shows at most
 * FOLD_LINES lines and at most FOLD_CHARS characters (the scorer's rubric uses the same 210,
 * src/scoring/rubrics.ts); the fold falls at whichever comes first, and never inside a word.
 */
export const FOLD_CHARS = 210;
export const FOLD_LINES = 3;

export interface Fold {
  /** The text shown before the fold. */
  visible: string;
  /** True when the card shows "…see more". */
  folded: boolean;
  /** Index in the original text where the hidden part starts (text.length when not folded). */
  index: number;
}

export function foldPost(text: string, maxChars = FOLD_CHARS, maxLines = FOLD_LINES): Fold {
  const trimmed = text.replace(/\s+$/, '');
  let cut = trimmed.length;
  // The line limit: the end of the maxLines-th line.
  let lines = 1;
  for (let i = 0; i < trimmed.length; i++) {
    if (trimmed[i] === '\n') {
      if (lines === maxLines) {
        cut = i;
        break;
      }
      lines++;
    }
  }
  // The character limit, counted in code points so an emoji is one character.
  const points = Array.from(trimmed);
  if (points.length > maxChars) {
    const charCut = points.slice(0, maxChars).join('').length;
    if (charCut < cut) {
      // Back up to the last whitespace so no word is cut in half (unless the word is the whole hook).
      const space = trimmed.lastIndexOf(' ', charCut);
      const newline = trimmed.lastIndexOf('\n', charCut);
      const boundary = Math.max(space, newline);
      cut = boundary > charCut / 2 ? boundary : charCut;
    }
  }
  if (cut >= trimmed.length) return { visible: trimmed, folded: false, index: text.length };
  return { visible: trimmed.slice(0, cut).replace(/\s+$/, ''), folded: true, index: cut };
}

/**
 * platformB's length: code points, with every URL counting 23 (PLATFORM_B.md), against 280.
 * The same pattern as the API's (src/platforms/platformB/text.ts, case-insensitive): a test
 * compares the two counts, so the console's counter never disagrees with the API's refusal.
 */
export const PLATFORMB_LIMIT = 280;
const URL_PATTERN = /https?:\/\/\S+/gi;

export function platformBLength(text: string): number {
  let length = 0;
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    length += Array.from(text.slice(last, match.index)).length + 23;
    last = match.index + match[0].length;
  }
  return length + Array.from(text.slice(last)).length;
}

/** The index where platformB's 280 weighted characters run out (text.length when it fits). */
export function platformBOverflowIndex(text: string, limit = PLATFORMB_LIMIT): number {
  if (platformBLength(text) <= limit) return text.length;
  let length = 0;
  let i = 0;
  const urls = [...text.matchAll(URL_PATTERN)];
  while (i < text.length) {
    const url = urls.find((m) => m.index === i);
    const step = url ? 23 : 1;
    if (length + step > limit) return i;
    length += step;
    i += url ? url[0].length : String.fromCodePoint(text.codePointAt(i)!).length;
  }
  return text.length;
}

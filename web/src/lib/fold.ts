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
 * platformB's length (code points, every URL 23, against 280): counted by the typed client,
 * the same code the API's limits use (packages/client/src/text-length.ts), never a copy.
 */
export {
  PLATFORM_B_MAX_TEXT as PLATFORMB_LIMIT,
  platformBOverflowIndex,
  platformBWeightedLength as platformBLength,
} from '../../../packages/client/src/text-length.ts';

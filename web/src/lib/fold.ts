/**
 * Where a feed card folds a post behind "…see more". The card shows at most `lines` lines and
 * at most `chars` characters (the platform's profile, published by /v1/meta `platforms[].fold`;
 * the scorer's rubric uses the same numbers); the fold falls at whichever comes first, and never
 * inside a word.
 */
export interface FoldAt {
  chars: number;
  lines: number;
}

export interface Fold {
  /** The text shown before the fold. */
  visible: string;
  /** True when the card shows "…see more". */
  folded: boolean;
  /** Index in the original text where the hidden part starts (text.length when not folded). */
  index: number;
}

export function foldPost(text: string, { chars: maxChars, lines: maxLines }: FoldAt): Fold {
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

/** Sentence and paragraph splitting shared by the offline rewrite passes and the length fit. */

/** Sentence ends: terminal punctuation (plus closing quotes) followed by white space. */
/** After end punctuation, but not after an initial or a title ("David C. Baker", "Dr. Lee"). */
const SENTENCE_BREAK = /(?<=[.!?…]["'’”)]*)(?<!(?:^|[\s(])\p{Lu}\.|\b(?:Mr|Mrs|Ms|Dr|St|vs|e\.g|i\.e)\.)\s+/u;

/** Sentences of a line; a piece with no word (a stray closing quote, an emoji) stays with the one before. */
export function splitSentences(line: string): string[] {
  const out: string[] = [];
  for (const piece of line.split(SENTENCE_BREAK)) {
    const s = piece.trim();
    if (!s) continue;
    if (out.length && !/[\p{L}\p{N}]/u.test(s)) out[out.length - 1] = `${out.at(-1)} ${s}`;
    else out.push(s);
  }
  return out;
}

/** `s` cut at a word to at most `max` characters, with an ellipsis. */
export const cutAtWord = (s: string, max: number) => `${s.slice(0, max - 1).replace(/\s+\S*$/u, '')}…`;

export const paragraphsOf = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);

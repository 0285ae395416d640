import commonWords from '../text/common-words.json' with { type: 'json' };
import { lowerCaseReading, winkKnows } from '../text/tagger.ts';

/**
 * A brief cut off mid-word ("... Discord did something sm", a pasted post cut at a length
 * limit): the cut word is no word, and a draft must not end a sentence on it ("Discord did
 * something sm."). The fragment goes, and so do the words before it that no English clause
 * ends on ("with the"); what is left ends with "…", because the brief's sentence went on and a
 * full stop would say it ended there ("I don't think we should cha" is "I don't think we
 * should…", not the opposite claim "I don't think we should.").
 *
 * A fragment is a last word, in lower case, after no final punctuation, that the project's word
 * table (common-words.json) does not hold, wink's English lexicon does not know (the table
 * leaves out words often capitalised, "conference", "manager"), whose wink lemma the table does
 * not hold either, and that begins some word it holds ("sm" of
 * "small"): a rare whole word ("kubernetes") begins none and stays. A name (a capital) may be
 * any letters and stays too.
 */

const WORDS: readonly string[] = [...(commonWords as { words: string[] }).words].sort();
const KNOWN = new Set(WORDS);
/** Words no English clause ends on: an article, a possessive, a conjunction, "of". */
const DANGLING = /(?:\s+(?:a|an|the|and|or|but|nor|my|your|our|their|its|of)|[\s,;:–—-]+)+$/iu;
const LAST_WORD = /(?<=^|\s)(\p{Ll}[\p{Ll}'’]*)$/u;
const ENDS_A_SENTENCE = /(?:[.!?…:)"”'’]|\p{Extended_Pictographic}\uFE0F?)$/u;

/** Whether some word of the table begins with `w` and is longer. */
function beginsAWord(w: string): boolean {
  let lo = 0;
  let hi = WORDS.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (WORDS[mid]! < w) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < WORDS.length && WORDS[i]!.startsWith(w); i++) if (WORDS[i] !== w) return true;
  return false;
}

/** Whether `word` (lower case) is the start of a word cut off, not a word. */
export function isFragment(word: string): boolean {
  const w = word.replace(/’/g, "'");
  if (KNOWN.has(w) || !beginsAWord(w)) return false;
  return !winkKnows(w) && !KNOWN.has(lowerCaseReading(w).lemma);
}

/** The brief's text with a cut last word taken off and "…" after what is left (see above). */
export function withoutCutWord(text: string): string {
  const trimmed = text.trimEnd();
  if (ENDS_A_SENTENCE.test(trimmed)) return text;
  const last = LAST_WORD.exec(trimmed);
  if (!last || !isFragment(last[1]!)) return text;
  const kept = trimmed.slice(0, last.index).replace(DANGLING, '');
  return /[\p{L}\p{N}][^\n]*$/u.test(kept) ? `${kept}…` : kept;
}

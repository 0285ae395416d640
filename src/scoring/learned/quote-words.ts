/**
 * Words the word-choice signal quotes (explain.ts), spelt as the post spells them.
 */

import { isWordUnit } from '../text/char-classes.ts';
import { allWordUnits, unitsAt } from '../text/spans.ts';

/**
 * `/[\p{L}\p{N}]/u.test(s[at])` for `s[at]` when it exists: one code unit (a surrogate is
 * neither), read from a table instead of a regex test of a one-character string.
 */
const isWordCharAt = (s: string, at: number) => at >= 0 && at < s.length && isWordUnit(s.charCodeAt(at));

/**
 * The post lower-cased as `asWritten` searches it for `word`: with straight apostrophes, as the
 * vocabulary spells words, when the word holds one; else as it is (a word without an
 * apostrophe is found at the same places either way: the change is one character for one,
 * and neither is a word character). `lower` is the text already lower-cased when the caller
 * has it, and `straight` keeps the straightened copy for the next word: lower-casing a post
 * with any non-ASCII character (ICU) and straightening its apostrophes each cost about 2% of
 * the scorer's time in a CPU profile (2026-11-27), and most words quoted hold no apostrophe.
 */
export class LowerForWords {
  readonly lower: string;
  #straight: string | undefined;
  constructor(text: string, lower = text.toLowerCase()) {
    this.lower = lower;
  }

  for(word: string): string {
    if (!word.includes("'") || !this.lower.includes('’')) return this.lower;
    this.#straight ??= this.lower.replaceAll('’', "'");
    return this.#straight;
  }
}

/**
 * A vocabulary word as the post writes it: lower case when the post ever writes it so, else its
 * first spelling ("America", "OpenAI"), so a quote never shows a name in lower case. `lower` is
 * the text lower-cased for this word (`LowerForWords`); `runs`, when given, its runs of letters
 * and digits (TextFeatures.runs, offsets `shift` units before `lower`'s: the text without the
 * white space around it), where a word of letters and digits alone stands as a word of its own.
 */
export function asWritten(
  word: string,
  text: string,
  lower: string,
  runs?: readonly number[],
  shift = 0,
): string {
  // A letter whose lower case is longer ("İ") shifts every index after it: keep the entry.
  if (lower.length !== text.length) return word;
  let first: string | undefined;
  if (runs !== undefined && allWordUnits(word)) {
    for (let r = 0; r < runs.length; r += 2) {
      const at = runs[r]! + shift;
      if (runs[r + 1]! - runs[r]! !== word.length || !unitsAt(lower, at, word)) continue;
      if (speltAs(text, at, word)) return word;
      first ??= text.slice(at, at + word.length).replaceAll('’', "'");
    }
    return first ?? word;
  }
  for (let at = lower.indexOf(word); at !== -1; at = lower.indexOf(word, at + 1)) {
    if (isWordCharAt(lower, at - 1) || isWordCharAt(lower, at + word.length)) continue;
    // Spelt as the word (’ read as '): no string is cut for the usual case.
    if (speltAs(text, at, word)) return word;
    first ??= text.slice(at, at + word.length).replaceAll('’', "'");
  }
  return first ?? word;
}

/** Whether `text` holds `word` at `at`, a ’ in the text read as '. */
function speltAs(text: string, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) {
    const c = text.charCodeAt(at + k);
    if ((c === 0x2019 ? 39 : c) !== word.charCodeAt(k)) return false;
  }
  return true;
}

/** `asWritten` of one word, as the word-choice signal quotes it (for tests). */
export const quoteAsWritten = (word: string, text: string, lower?: string) =>
  asWritten(word, text, new LowerForWords(text, lower).for(word));

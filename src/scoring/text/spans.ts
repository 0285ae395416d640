import type { Signal, Span } from '../types.ts';
import { isWordUnit } from './char-classes.ts';
import { isJsSpace, isSentenceEnd } from './text-scan.ts';

/**
 * Where things stand in a post, as spans of the text the caller submitted. The rules read the
 * normalised text (text-features.ts `normalizePost`: line endings made "\n", spaces before a
 * line break and around the post dropped); a signal points into the text as sent, so every
 * span found in the normalised text is mapped back. Only signals that are shown ask, so the
 * scorer pays for the spans of a dozen signals, not for every rule.
 */

export const WORD_CHAR = /[\p{L}\p{N}]/u;
/**
 * `WORD_CHAR.test(s[at])` for `s[at]` when it exists: one code unit (a surrogate is neither a
 * letter nor a digit), read from a table instead of a regex test of a one-character string.
 */
const isWordCharAt = (s: string, at: number) => at >= 0 && at < s.length && isWordUnit(s.charCodeAt(at));

export class PostSpans {
  readonly raw: string;
  /** The normalised text the rules read. */
  readonly text: string;
  #lower: string | undefined;
  /** `lower` with ’ read as ', for `phrases`. */
  #straight: string | undefined;
  /** The sentences' starts and ends, in order (`sentences`). */
  #sentenceRanges: readonly number[] | undefined;
  #sentences: (readonly [number, number])[] | undefined;
  /** For each offset of `text`, its offset in `raw` (built on first use when they differ). */
  #map: Int32Array | undefined;
  /** `raw` is `text` with white space around it: offsets shift by this much. */
  #lead = -1;
  /** `lower`'s runs of letters and digits (TextFeatures.runs), when the caller has them. */
  #runs: readonly number[] | undefined;

  /**
   * `lower`, when given, is `text.toLowerCase()` (the scorer has it: TextFeatures.lower), and
   * `runs` its runs of letters and digits (TextFeatures.runs); `sentences`, when given, are
   * `text`'s sentences as this class cuts them, starts and ends (TextFeatures.sentenceRanges).
   */
  constructor(
    raw: string,
    text: string,
    lower?: string,
    runs?: readonly number[],
    sentences?: readonly number[],
  ) {
    this.raw = raw;
    this.text = text;
    this.#lower = lower;
    this.#runs = lower === undefined ? undefined : runs;
    this.#sentenceRanges = sentences;
    if (raw === text) this.#lead = 0;
    else if (raw.trim() === text) this.#lead = raw.length - raw.trimStart().length;
  }

  get lower(): string {
    this.#lower ??= this.text.toLowerCase();
    return this.#lower;
  }

  /** `text` offset -> `raw` offset. normalizePost only drops characters (or makes "\r" "\n"), so `text` is a subsequence of `raw`. */
  #toRaw(at: number): number {
    if (this.#lead >= 0) return at + this.#lead;
    if (this.#map === undefined) {
      const map = new Int32Array(this.text.length + 1);
      let i = 0;
      for (let j = 0; j < this.text.length; j++) {
        const c = this.text[j];
        while (i < this.raw.length && this.raw[i] !== c && !(c === '\n' && this.raw[i] === '\r')) i++;
        map[j] = i;
        // "\r\n" became one "\n": step over both.
        if (this.raw[i] === '\r' && this.raw[i + 1] === '\n') i++;
        i++;
      }
      map[this.text.length] = i;
      this.#map = map;
    }
    return this.#map[at]!;
  }

  /** A stretch of `text` as a span of `raw`. */
  span(start: number, end: number): Span {
    if (end <= start) return { start: this.#toRaw(start), end: this.#toRaw(start) };
    return { start: this.#toRaw(start), end: this.#toRaw(end - 1) + 1 };
  }

  /** Every match of a global pattern in `text`, at most `limit`. */
  matches(pattern: RegExp, limit = 20): Span[] {
    const out: Span[] = [];
    for (const m of this.text.matchAll(pattern)) {
      if (out.length === limit) break;
      if (m[0].length > 0) out.push(this.span(m.index, m.index + m[0].length));
    }
    return out;
  }

  /**
   * `matches` of the global pattern whose sticky copy is `re`, when `starts` holds every position
   * a match can start at (sorted, repeats allowed): each is tried there, in order from the end of
   * the previous match, as the global search goes (anchored-counts.ts), so the pattern is not
   * tried at every position of the post. For patterns that match no empty string.
   */
  matchesAt(re: RegExp, starts: readonly number[], limit = 20): Span[] {
    const out: Span[] = [];
    let from = 0;
    for (const start of starts) {
      if (start < from) continue;
      if (out.length === limit) break;
      re.lastIndex = start;
      if (!re.test(this.text)) continue;
      from = re.lastIndex;
      if (from > start) out.push(this.span(start, from));
      else from = start + 1;
    }
    return out;
  }

  /** Where each phrase stands as whole words, case-blind (a curly apostrophe reads as straight). */
  phrases(phrases: readonly string[], limit = 20): Span[] {
    if (this.lower.length !== this.text.length) return [];
    const out: Span[] = [];
    const runs = this.#runs;
    for (const phrase of phrases) {
      const p = phrase.trim().toLowerCase();
      if (!p) continue;
      // A phrase of letters and digits alone stands as a word of its own exactly where it is a
      // whole run: the runs are compared instead of searching the text (most posts are two-byte
      // strings, where `indexOf` of an ASCII word tries nearly every position).
      // (Straightening the apostrophes moves nothing and touches no letter: `lower` serves.)
      if (runs !== undefined && allWordUnits(p)) {
        const lower = this.lower;
        for (let r = 0; r < runs.length && out.length < limit; r += 2)
          if (runs[r + 1]! - runs[r]! === p.length && unitsAt(lower, runs[r]!, p))
            out.push(this.span(runs[r]!, runs[r + 1]!));
        continue;
      }
      this.#straight ??= this.lower.includes('’') ? this.lower.replaceAll('’', "'") : this.lower;
      const lower = this.#straight;
      for (let at = lower.indexOf(p); at !== -1 && out.length < limit; at = lower.indexOf(p, at + 1)) {
        if (isWordCharAt(lower, at - 1) || isWordCharAt(lower, at + p.length)) continue;
        out.push(this.span(at, at + p.length));
      }
    }
    return out.sort((a, b) => a.start - b.start);
  }

  /**
   * The sentences of `text` (split at . ! ? … followed by white space, and at line breaks), as
   * starts and ends in order. Cut once per post by a scan of the code units and kept: several
   * signals point at sentences, and each cut them again with a regex test per character (a
   * tenth of the scorer's time, 2026-12-03). The scorer hands in those its sentence scan found
   * (text-scan.ts `sentenceStats`), so they are not cut again (1.7% of its time, 2026-12-04).
   */
  #ranges(): readonly number[] {
    this.#sentenceRanges ??= cutSentences(this.text);
    return this.#sentenceRanges;
  }

  /** The sentences of `text` (`#ranges`), as [start, end) offsets. */
  sentences(): readonly (readonly [number, number])[] {
    if (this.#sentences === undefined) {
      const r = this.#ranges();
      const out: [number, number][] = [];
      for (let k = 0; k < r.length; k += 2) out.push([r[k]!, r[k + 1]!]);
      this.#sentences = out;
    }
    return this.#sentences;
  }

  /** The sentences that pass `keep` (given the text and the sentence's [start, end)), as spans. */
  sentencesAt(keep: (text: string, start: number, end: number) => boolean, limit = 10): Span[] {
    const out: Span[] = [];
    const r = this.#ranges();
    for (let k = 0; k < r.length; k += 2) {
      if (out.length === limit) break;
      if (keep(this.text, r[k]!, r[k + 1]!)) out.push(this.span(r[k]!, r[k + 1]!));
    }
    return out;
  }

  /** The sentences that pass `keep`, as spans. */
  sentencesWhere(keep: (sentence: string) => boolean, limit = 10): Span[] {
    return this.sentencesAt((t, s, e) => keep(t.slice(s, e)), limit);
  }

  /** The first occurrence of `part` in `text`, as a span; none when it is absent or empty. */
  first(part: string): Span[] {
    if (!part) return [];
    const at = this.text.indexOf(part);
    return at === -1 ? [] : [this.span(at, at + part.length)];
  }
}

/** Whether every code unit of `s` is a letter or digit alone (`isWordUnit`). */
export function allWordUnits(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isWordUnit(s.charCodeAt(i))) return false;
  return true;
}

/** Whether `s` holds `word` at `at` (`word` fits: the caller checked the length). */
export function unitsAt(s: string, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if (s.charCodeAt(at + k) !== word.charCodeAt(k)) return false;
  return true;
}

/** A letter or digit in text.slice(start, end): ASCII read by hand, anything else by the regex (as `WORD_CHAR.test` of the slice). */
function holdsWord(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) return WORD_CHAR.test(text.slice(start, end));
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)) return true;
  }
  return false;
}

/** `PostSpans.sentences`: pieces ending at a line break or after . ! ? … with white space (or the end) next, trimmed, that hold a letter or digit. */
function cutSentences(t: string): number[] {
  const out: number[] = [];
  const n = t.length;
  let start = 0;
  const push = (end: number) => {
    let s = start;
    let e = end;
    while (s < e && isJsSpace(t.charCodeAt(s))) s++;
    while (e > s && isJsSpace(t.charCodeAt(e - 1))) e--;
    if (e > s && holdsWord(t, s, e)) out.push(s, e);
  };
  for (let i = 0; i < n; i++) {
    const c = t.charCodeAt(i);
    if (c === 10) {
      push(i);
      start = i + 1;
    } else if (isSentenceEnd(c) && (i + 1 === n || isJsSpace(t.charCodeAt(i + 1)))) {
      push(i + 1);
      start = i + 1;
    }
  }
  push(n);
  return out;
}

/**
 * A result scored on the normalised text (the service scores and caches that, so a post sent
 * with "\r\n" or white space around it shares the cache entry of its normalised twin), with
 * every signal's spans moved into the text as submitted.
 */
export function inSubmittedText<R extends { signals: Signal[]; personal?: { signals: Signal[] } }>(
  result: R,
  submitted: string,
  text: string,
): R {
  if (submitted === text) return result;
  const post = new PostSpans(submitted, text);
  const move = (signals: Signal[]) =>
    signals.map((s) =>
      s.spans.length === 0 ? s : { ...s, spans: s.spans.map((x) => post.span(x.start, x.end)) },
    );
  const personal = result.personal && { ...result.personal, signals: move(result.personal.signals) };
  return { ...result, signals: move(result.signals), ...(personal ? { personal } : {}) };
}

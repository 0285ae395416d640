import { linkStarts, sticky } from '../text/anchored-counts.ts';
import { NOT_X_BUT_Y } from '../text/lexicon.ts';
import { numberRanges } from '../text/numbers.ts';
import { copiesAfterFirst, repeatedOpening } from '../text/opening-copies.ts';
import { personLength } from '../text/person-length.ts';
import type { PostSpans } from '../text/spans.ts';
import { HASHTAG, LINK, LIST_LINE, MENTION, type TextFeatures } from '../text/text-features.ts';
import { splitPieces } from '../text/text-scan.ts';
import type { Span } from '../types.ts';

/**
 * Which words each rule or feature is about, so its signal points at them (Signal.spans): the
 * opening sentence for the opening, the link for links, the long sentences for sentence length.
 * A feature about the whole post (its length, its format, its timing) has none.
 */

export interface SpanContext {
  spans: PostSpans;
  f: TextFeatures;
  /** Where the post runs past the platform's limit, as an offset of the submitted text. */
  overflowAt: number;
}

type Finder = (c: SpanContext) => Span[];

const hook: Finder = ({ spans, f }) => spans.first(f.hook);
const firstLine: Finder = ({ spans, f }) => spans.first(f.firstLine);
const words =
  (pattern: RegExp): Finder =>
  ({ spans }) =>
    spans.matches(pattern);
const phrasesOf =
  (list: keyof TextFeatures['phrases']): Finder =>
  ({ spans, f }) =>
    spans.phrases(f.phrases[list]);
const QUESTION_MARK = 63;
const questions: Finder = ({ spans }) =>
  spans.sentencesAt((t, _, e) => t.charCodeAt(e - 1) === QUESTION_MARK);
const LONG_SENTENCE_WORDS = 28;
/**
 * More than LONG_SENTENCE_WORDS pieces between runs of white space (`split(/\s+/)`, counted in
 * place). A sentence is trimmed, so that many pieces take at least a character each and a space
 * between: a shorter one is not counted.
 */
const LONG_SENTENCE_CHARS = 2 * LONG_SENTENCE_WORDS + 1;
const longSentences: Finder = ({ spans }) =>
  spans.sentencesAt((t, s, e) => e - s >= LONG_SENTENCE_CHARS && splitPieces(t, s, e) > LONG_SENTENCE_WORDS);
const ranges =
  (find: (text: string) => [number, number][]): Finder =>
  ({ spans }) =>
    find(spans.text).map(([s, e]) => spans.span(s, e));
/** The numbers extractFeatures found (numbers.ts), else (it looked for none) those of the text. */
const numbers: Finder = (c) =>
  c.f.numberRanges === undefined
    ? ranges(numberRanges)(c)
    : c.f.numberRanges.map(([s, e]) => c.spans.span(s, e));
/** The names extractFeatures found (names.ts), so they are not looked for twice. */
const names: Finder = ({ spans, f }) => f.names.map(([s, e]) => spans.span(s, e));
const FIRST_PERSON = /(?<![\p{L}'’])(?:I|I['’](?:m|ve|d|ll)|[Mm]y|[Mm]e)(?![\p{L}'’])/gu;
const WE = /(?<![\p{L}'’])(?:[Ww]e|[Oo]ur|[Uu]s)(?![\p{L}'’])/gu;
const YOU = /(?<![\p{L}'’])(?:[Yy]ou|[Yy]our|[Yy]ou['’](?:re|ve|ll|d))(?![\p{L}'’])/gu;

/**
 * Every offset of `text` holding a character `opens` (a global pattern of one character class)
 * matches, in order: found by the regex engine's own scan, as `indexOf` of an ASCII character
 * in a two-byte string tries nearly every position.
 */
function offsetsOf(text: string, opens: RegExp): number[] {
  const out: number[] = [];
  opens.lastIndex = 0;
  while (opens.test(text)) out.push(opens.lastIndex - 1);
  return out;
}

/**
 * `words(pattern)` for a pattern whose every match starts with one of the characters of
 * `opens`: tried (sticky) only there. The pronoun patterns open with a lookbehind over Unicode
 * classes, which the global search tried at every position of the post (4% of the scorer's time
 * in a CPU profile, 2026-12-03).
 */
const wordsFrom = (pattern: RegExp, opens: RegExp): Finder => {
  const at = sticky(pattern);
  return ({ spans }) => spans.matchesAt(at, offsetsOf(spans.text, opens));
};
const LINK_AT = sticky(LINK);
/** The links, tried where one can start (anchored-counts.ts `linkStarts`). */
const links: Finder = ({ spans }) => {
  const starts = linkStarts(spans.text, spans.lower);
  return starts === undefined
    ? spans.matches(LINK)
    : spans.matchesAt(
        LINK_AT,
        starts.sort((a, b) => a - b),
      );
};
const hashtags = wordsFrom(HASHTAG, /#/g);
const mentions = wordsFrom(MENTION, /@/g);
const firstPerson = wordsFrom(FIRST_PERSON, /[IMm]/g);
const we = wordsFrom(WE, /[WwOoUu]/g);
const you = wordsFrom(YOU, /[Yy]/g);
const EM_DASH = /—/g;
const EXCLAMATION = /!+/g;

/** The longest line, as the dense-paragraph rule measures it (characters as a person counts them). */
const longestLine: Finder = ({ spans }) => {
  let best: [number, number] = [0, 0];
  let longest = 0;
  let start = 0;
  const t = spans.text;
  for (;;) {
    const nl = t.indexOf('\n', start);
    const end = nl === -1 ? t.length : nl;
    const chars = end - start > longest ? personLength(t.slice(start, end)) : 0;
    if (chars > longest) {
      best = [start, end];
      longest = chars;
    }
    if (nl === -1) break;
    start = nl + 1;
  }
  return best[1] > best[0] ? [spans.span(best[0], best[1])] : [];
};

/** The last sentence: where a closing question stands. */
/** The closing question: the last sentence that asks one (hashtags after it are not the question). */
const closingLine: Finder = ({ spans }) => {
  const all = spans.sentences();
  const s = all.findLast(([, end]) => spans.text.charCodeAt(end - 1) === QUESTION_MARK) ?? all.at(-1);
  return s ? [spans.span(s[0], s[1])] : [];
};

/**
 * The sentences that repeat an earlier one word for word (case aside), as the repetition rule
 * counts them (text-scan.ts `sentenceStats`): the copies a writer would cut, not the first telling.
 */
const REPEAT_MARKS = 20;
const repeatedSentences: Finder = ({ spans, f }) => {
  const seen = new Set<string>();
  const copied = spans.sentencesAt((t, s, e) => {
    const key = t
      .slice(s, e)
      .replace(/[.!?…]+$/u, '')
      .toLowerCase();
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  }, REPEAT_MARKS);
  if (copied.length > 0) return copied;
  // An opening copied with no sentence end between the copies (text-features.ts `repeatedShare`).
  const copy = repeatedOpening(spans.text, f.hook);
  return copiesAfterFirst(spans.text, copy)
    .slice(0, REPEAT_MARKS)
    .map((at) => spans.span(at, at + copy.length));
};

const FINDERS: Record<string, Finder> = {
  'writing.repetition': repeatedSentences,
  'length.over_limit': ({ spans, overflowAt }) =>
    overflowAt < spans.raw.length ? [{ start: overflowAt, end: spans.raw.length }] : [],
  'link.external': links,
  'text.links': links,
  'hashtags.excess': hashtags,
  'text.hashtags': hashtags,
  'text.inline_hashtags': hashtags,
  'mentions.excess': mentions,
  'mentions.tagged': mentions,
  'text.mentions': mentions,
  'engagement.bait': phrasesOf('bait'),
  'hook.fold': hook,
  'hook.archetype': hook,
  'hook.generic_opener': firstLine,
  'text.hook_length': hook,
  'text.hook_own_line': firstLine,
  'text.hook_first_person': hook,
  'judge.hook': hook,
  'structure.long_paragraph': longestLine,
  'structure.list': words(LIST_LINE),
  'text.list_lines': words(LIST_LINE),
  'structure.long_sentences': longSentences,
  'text.sentence_words': longSentences,
  'specificity.numbers': numbers,
  'text.numbers': numbers,
  // The rule counts names and handles alike.
  'specificity.names': (c) => [...names(c), ...mentions(c)].sort((a, b) => a.start - b.start),
  'text.names': names,
  'specificity.vague': phrasesOf('vague'),
  'specificity.jargon': phrasesOf('jargon'),
  'voice.ai_tells': phrasesOf('aiTells'),
  'voice.em_dash_stack': words(EM_DASH),
  'voice.not_x_but_y': words(NOT_X_BUT_Y),
  'voice.first_person': firstPerson,
  'text.first_person': firstPerson,
  'voice.corporate_we': we,
  'text.first_person_plural': we,
  'voice.lecturing': you,
  'text.second_person': you,
  'text.exclamations': words(EXCLAMATION),
  'engagement.personal_story': (c) => {
    const found = phrasesOf('personalNews')(c);
    return found.length > 0 ? found : hook(c);
  },
  'engagement.call_to_comment': phrasesOf('callsToComment'),
  'engagement.closing_question': closingLine,
  'text.ends_with_question': closingLine,
  'engagement.question_overload': questions,
  'text.questions': questions,
};

/** The spans a signal about `name` points at; none for a feature about the whole post. */
export function spansOf(name: string, c: SpanContext): Span[] {
  const finder = FINDERS[name];
  return finder === undefined ? [] : finder(c);
}

/** Where each of `words` stands in the post (the word-choice signal's words). */
export const wordSpans = (words: readonly string[], c: SpanContext): Span[] => c.spans.phrases(words);

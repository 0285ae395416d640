import {
  countAround,
  countAtLineStarts,
  countAtStarts,
  countFrom,
  countFromSplit,
  linkStarts as startsOfLinks,
  sticky,
} from './anchored-counts.ts';
import { firstSentence } from './first-sentence.ts';
import { countMatches, NOT_X_BUT_Y } from './lexicon.ts';
import { nameRanges } from './names.ts';
import { numberRanges } from './numbers.ts';
import { openingRepeats } from './opening-copies.ts';
import { paragraphStats } from './paragraph-stats.ts';
import { longestLineChars } from './person-length.ts';
import {
  cutTokens,
  hasPhrase,
  hasPhraseIn,
  type PhraseList,
  phraseWordsAfterFirst,
  scanPhrases,
  scanWords,
  tokenize,
} from './phrases.ts';
import { sentenceStats, withoutTrailingHashtags } from './text-scan.ts';
import type { LookedUpWords } from './word-facts.ts';

/** Measurable features of a post's text: the rules layer's only input besides the request. */
const NO_NAMES: readonly (readonly [number, number])[] = [];

export interface TextFeatures {
  text: string;
  /** `text.toLowerCase()` (the tokeniser made it), for readers that search the text case-blind. */
  lower: string;
  /**
   * Lower-cased word tokens (phrases.ts `tokenize`), cut when first asked for: the scorer's
   * readers use `wordFacts` (ids, and ranges of the words no table knows) and never ask.
   */
  tokens: () => string[];
  /** The tokens' word ids, looked up once for every measure that reads them (word-facts.ts). */
  wordFacts: LookedUpWords;
  /** UTF-16 code units (what offsets and spans count). */
  length: number;
  /** Characters as a person counts them (person-length.ts): what signals state and measure. */
  chars: number;
  words: number;
  /** Non-empty lines. */
  lines: number;
  /** Blocks separated by blank lines (a single line break also separates on most clients). */
  paragraphs: number;
  longestParagraph: number;
  /** True when the text has any line break at all. */
  hasLineBreaks: boolean;
  sentences: number;
  /**
   * Where the sentences stand in `text`, start and end in order, as spans.ts `PostSpans` cuts
   * them (trimmed, their closing . ! ? … kept): found by the sentence scan that counts them.
   */
  sentenceRanges: readonly number[];
  /**
   * Share of the text's sentence characters that repeat an earlier sentence word for word (or
   * repeat the opening sentence anywhere): filler made by copying, 0 in almost every real post.
   */
  repeatedShare: number;
  avgSentenceWords: number;
  /** First non-empty line. */
  firstLine: string;
  /** First sentence of the first line: the thought the reader sees before deciding. */
  hook: string;
  /** The hook's tokens (phrases.ts `tokenize`). */
  hookTokens: string[];
  /** When the hook's tokens are the text's first tokens: the text's lookup (`wordFacts`), whose first ids are theirs. */
  hookWords: LookedUpWords | undefined;
  hashtags: number;
  /** Hashtags inside the text, not in the closing run of tags. */
  inlineHashtags: number;
  links: number;
  mentions: number;
  numbers: number;
  /** Capitalised words mid-sentence: names, products, places (named specifics). */
  properNouns: number;
  /** Where those names stand in `text`, [start, end) (found once: the count and the signal's spans read them). */
  names: readonly (readonly [number, number])[];
  /**
   * Every run of letters and digits of `lower` (code units, with none on either side), start and
   * end in order, as the tokeniser found them (tokenizer.ts `scanWords`): where a word of letters
   * and digits alone stands as a word of its own, so the signals that quote or point at words
   * compare runs instead of searching the text (spans.ts `phrases`, quote-words.ts).
   */
  runs: readonly number[];
  /**
   * Where the numbers stand in `text`, [start, end) (numbers.ts `numberRanges`, found once: the
   * count and the signal's spans read them); undefined when the tokens hold no number, so none
   * was looked for.
   */
  numberRanges: readonly (readonly [number, number])[] | undefined;
  questions: number;
  endsWithQuestion: boolean;
  exclamations: number;
  emoji: number;
  /** Letters in styled Unicode (mathematical bold, italic...). */
  styledLetters: number;
  firstPerson: number;
  firstPersonPlural: number;
  secondPerson: number;
  listLines: number;
  bait: number;
  aiTells: number;
  emDashes: number;
  notXButY: number;
  genericOpener: boolean;
  jargon: number;
  vague: number;
  callsToComment: number;
  personalNews: number;
  /** Up to three matched phrases per list (signal details, validate warnings). */
  phrases: Record<PhraseList, string[]>;
}

export const HASHTAG = /(?<![\p{L}\p{N}_&#/])#(?=[\p{L}\p{N}_]*\p{L})[\p{L}\p{N}_]+/gu;
export const LINK =
  /\bhttps?:\/\/[^\s<>"')\]]+|\bwww\.[^\s<>"')\]]+|\b(?:lnkd\.in|bit\.ly|t\.co|buff\.ly)\/[^\s<>"')\]]+/gi;
/**
 * A handle that tags a person. "@everyone", "@here", "@channel" and "@all" ping a whole group
 * (a chat's notice to all its members) and tag no one, so they are no mention and no name.
 */
export const MENTION =
  /(?<![\p{L}\p{N}_.])@(?!(?:[Ee]veryone|[Hh]ere|[Cc]hannel|[Aa]ll)(?![\p{L}\p{N}_.-]))[\p{L}\p{N}_][\p{L}\p{N}_.-]*/gu;
export const LIST_LINE = /^[ \t]*(?:[-•*▪►→–]|\d{1,2}[.)]|\p{Extended_Pictographic}\uFE0F?)[ \t]+\S/gmu;
// Sticky copies, tried only where a match can start (anchored-counts.ts).
const HASHTAG_AT = sticky(HASHTAG);
const MENTION_AT = sticky(MENTION);
const LIST_LINE_AT = sticky(LIST_LINE);
const NOT_X_BUT_Y_AT = sticky(NOT_X_BUT_Y);
const LINK_AT = sticky(LINK);
/** Where "not " sits in a NOT_X_BUT_Y match: at its start, or after "it's", "it is", "that's", "this is". */
const NOT_OFFSETS = [0, 5, 6, 7, 8];
/** What a NOT_X_BUT_Y match starts with: "not", "it's", "it is", "this is" or "that's". */
const NOT_OPENS = 'nit';

/** Normalises line endings and trailing space; scoring, caching and validation all use it. */
export function normalizePost(text: string): string {
  let out = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  if (spaceBeforeLineBreak(out)) out = out.replace(/[ \t]+\n/g, '\n');
  return out.trim();
}

/**
 * Whether a space or a tab ends a line: found from the line breaks, which are few, where
 * `includes(' \n')` tried the pattern at every space (1.6% of the scorer's time in a CPU
 * profile, 2026-11-27).
 */
function spaceBeforeLineBreak(text: string): boolean {
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    const c = i === 0 ? 10 : text.charCodeAt(i - 1);
    if (c === 32 || c === 9) return true;
  }
  return false;
}

// The first sentence of a line: its readers import it from here.
export { firstSentence } from './first-sentence.ts';

/** Runs of a character count once ("??" is one question). */
function countRuns(text: string, ch: string): number {
  let n = 0;
  for (let i = text.indexOf(ch); i !== -1; i = text.indexOf(ch, i + 1)) if (text[i - 1] !== ch) n++;
  return n;
}

/** The generic-opener check reads the first line's first 200 characters at most. */
const OPENER_CHARS = 200;
/** Opening phrases start in the first four words. */
const OPENER_WORDS = 4;
/** Tokens a generic-opener match can read: a start in the first four words, and its phrase's other words. */
const OPENER_READS = OPENER_WORDS + phraseWordsAfterFirst('genericOpeners');

/**
 * Whether the first line (its first 200 characters) opens with a generic phrase. `head`, when
 * given, is the text's tokens that end within `min(firstLine.length, 200)` (the first line starts
 * the text, lower-cased in place): those are the first tokens of the cut line too, as a token's
 * extent depends only on the characters up to its end and the one after it, and one that runs
 * past the cut is not among them. The cut line can only differ after them (a token the cut
 * shortened), so they decide whenever the match cannot read that far. Tokenising the cut line
 * again was 3.7% of the scorer's time (CPU profile, 2026-11-27): most bench posts' first line
 * runs past 200 characters.
 */
function genericOpener(firstLine: string, head: string[] | undefined, looked: LookedUpWords): boolean {
  if (head !== undefined && (firstLine.length <= OPENER_CHARS || head.length >= OPENER_READS))
    return hasPhraseIn('genericOpeners', head, OPENER_WORDS, looked);
  return hasPhrase(
    'genericOpeners',
    firstLine.length > OPENER_CHARS ? firstLine.slice(0, OPENER_CHARS) : firstLine,
    OPENER_WORDS,
  );
}

export function extractFeatures(raw: string): TextFeatures {
  const text = normalizePost(raw);
  const newline = text.indexOf('\n');
  const firstLine = (newline === -1 ? text : text.slice(0, newline)).trim();
  const hook = firstSentence(firstLine);
  // The opening's tokens are read up to the hook's end and the generic-opener check's window.
  const openerEnd = Math.min(firstLine.length, OPENER_CHARS);
  // The words no table knows are not cut (phrases.ts `scanWords`): `tokens` below cuts them
  // when a reader asks, which the scorer's own readers do not.
  const scan = scanWords(text, Math.max(hook.length, openerEnd));
  const { words: wordFacts, lower, headEnds } = scan;
  let cut: string[] | undefined;
  const tokens = () => {
    cut ??= cutTokens(wordFacts, scan.count);
    return cut;
  };
  // First, while the tokeniser's copy of the lower-cased text's code units is the scan's.
  // The sentence scan also finds where the capitals mid-sentence start (names.ts reads them).
  const capitalsAt: number[] = [];
  const sentenceRanges: number[] = [];
  const {
    sentences,
    repeated,
    properNouns: capitals,
    emoji,
    styled,
    emDashes,
    chars,
  } = sentenceStats(text, lower, scan.units, capitalsAt, sentenceRanges);
  // Capitals inside sentences that name something (names.ts), not a headline's or a common word's.
  const names = capitals === 0 ? NO_NAMES : nameRanges(text, lower, capitalsAt, scan.units, scan.runs);
  const { counts, found, words, numbers, pronouns } = scanPhrases(tokens, wordFacts);
  // Numerals standing as words, not digits inside a word, a tag, a handle or a link (numbers.ts).
  const numberAt = numbers === 0 || !/\d/.test(text) ? undefined : numberRanges(text);
  // The opening's tokens are the text's first tokens when the opening starts the text and
  // lower-casing kept every character in place (a token cannot run past the opening's end:
  // it ends at white space, a line break or sentence punctuation).
  // The first line and the hook start the text: it is trimmed, and each is cut from its start.
  const inPlace = lower.length === text.length && !text.includes('Σ');
  // The opening's tokens (those ending by the hook's end or the opener window's) are cut once;
  // each reader takes its prefix.
  const head = inPlace ? cutTokens(wordFacts, headEnds.length) : [];
  const tokensBy = (end: number) => {
    let n = 0;
    while (n < headEnds.length && headEnds[n]! <= end) n++;
    return n === head.length ? head : head.slice(0, n);
  };
  const { paragraphs, longest, lines } = paragraphStats(text);
  const hasHash = text.includes('#');
  const trimmedEnd = hasHash ? withoutTrailingHashtags(text).trimEnd() : text;
  // The text without its closing tags ends at white space or a "#", which no tag holds.
  const tags = hasHash ? countFromSplit(HASHTAG_AT, text, '#', trimmedEnd.length) : undefined;
  const hashtags = tags === undefined ? 0 : tags.all;
  // "not " found in the lower-cased text stands where it stands in the text.
  const notAt = lower.length === text.length;
  const linkStarts = startsOfLinks(text, lower);
  return {
    text,
    lower,
    tokens,
    wordFacts,
    length: text.length,
    chars,
    words,
    lines,
    paragraphs,
    longestParagraph: longestLineChars(text, chars, longest),
    hasLineBreaks: newline !== -1,
    sentences,
    sentenceRanges,
    repeatedShare: Math.max(repeated, openingRepeats(text, hook)),
    avgSentenceWords: sentences === 0 ? 0 : words / sentences,
    firstLine,
    hook,
    hashtags,
    hookTokens: inPlace ? tokensBy(hook.length) : tokenize(hook),
    hookWords: inPlace ? wordFacts : undefined,
    inlineHashtags: tags === undefined ? 0 : tags.before,
    links: linkStarts === undefined ? countMatches(LINK, text) : countAtStarts(LINK_AT, text, linkStarts),
    mentions: text.includes('@') ? countFrom(MENTION_AT, text, '@') : 0,
    numbers: numberAt === undefined ? 0 : numberAt.length,
    numberRanges: numberAt,
    properNouns: names.length,
    names,
    runs: scan.runs,
    questions: countRuns(text, '?'),
    endsWithQuestion: trimmedEnd.endsWith('?'),
    exclamations: countRuns(text, '!'),
    emoji,
    styledLetters: styled,
    firstPerson: pronouns[1]!,
    firstPersonPlural: pronouns[2]!,
    secondPerson: pronouns[3]!,
    listLines: newline === -1 ? 0 : countAtLineStarts(LIST_LINE_AT, text, LIST_LINE),
    bait: counts.bait,
    aiTells: counts.aiTells,
    emDashes,
    notXButY: notAt
      ? countAround(NOT_X_BUT_Y_AT, text, lower, 'not ', NOT_OFFSETS, NOT_OPENS)
      : /not /i.test(text)
        ? countMatches(NOT_X_BUT_Y, text)
        : 0,
    genericOpener: genericOpener(firstLine, inPlace ? tokensBy(openerEnd) : undefined, wordFacts),
    jargon: counts.jargon,
    vague: counts.vague,
    callsToComment: counts.callsToComment,
    personalNews: counts.personalNews,
    phrases: found,
  };
}

import { countMatches, NOT_X_BUT_Y } from './lexicon.ts';
import { hasPhrase, type PhraseList, scanPhrases, tokenize } from './phrases.ts';

/** Measurable features of a post's text: the rules layer's only input besides the request. */
export interface TextFeatures {
  text: string;
  /** Lower-cased word tokens (phrases.ts `tokenize`), kept for the learned model's word features. */
  tokens: string[];
  length: number;
  words: number;
  /** Non-empty lines. */
  lines: number;
  /** Blocks separated by blank lines (a single line break also separates on most clients). */
  paragraphs: number;
  longestParagraph: number;
  /** True when the text has any line break at all. */
  hasLineBreaks: boolean;
  sentences: number;
  avgSentenceWords: number;
  /** First non-empty line. */
  firstLine: string;
  /** First sentence of the first line: the thought the reader sees before deciding. */
  hook: string;
  hashtags: number;
  links: number;
  mentions: number;
  numbers: number;
  /** Capitalised words mid-sentence: names, products, places (named specifics). */
  properNouns: number;
  questions: number;
  endsWithQuestion: boolean;
  exclamations: number;
  emoji: number;
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
/** Cheap pre-check: no link pattern can match without one of these. */
const mayHaveLink = (text: string) =>
  text.includes('://') || /www\.|lnkd\.in\/|bit\.ly\/|t\.co\/|buff\.ly\//i.test(text);
export const MENTION = /(?<![\p{L}\p{N}_.])@[\p{L}\p{N}_][\p{L}\p{N}_.-]*/gu;
const LOWER_OR_DIGIT = /^[\p{Ll}\p{N}]$/u;
const UPPER = /^\p{Lu}$/u;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/** The code point starting at `i` as a string (one or two code units). */
const charAt = (text: string, i: number): string => {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff ? text.slice(i, i + 2) : text[i]!;
};
/** The code point ending just before `end`. */
const charBefore = (text: string, end: number): string => {
  const c = text.charCodeAt(end - 1);
  return c >= 0xdc00 && c <= 0xdfff && end >= 2 ? text.slice(end - 2, end) : text[end - 1]!;
};

/**
 * Capitalised words mid-sentence: after a space that follows a lower-case letter, a digit or
 * , ; : ) -- a hand scan from each space (the lookbehind regex costs several times more).
 */
function countProperNouns(text: string): number {
  let n = 0;
  for (let i = text.indexOf(' ', 1); i !== -1; i = text.indexOf(' ', i + 1)) {
    const b = text.charCodeAt(i - 1);
    const before =
      b < 128
        ? (b >= 97 && b <= 122) || (b >= 48 && b <= 57) || b === 44 || b === 59 || b === 58 || b === 41
        : LOWER_OR_DIGIT.test(charBefore(text, i));
    if (!before) continue;
    const u = text.charCodeAt(i + 1);
    const first = u < 128 ? (u >= 65 && u <= 90 ? 'A' : '') : charAt(text, i + 1);
    if (!first || (u >= 128 && !UPPER.test(first))) continue;
    const k = i + 1 + first.length;
    if (k >= text.length) continue;
    const c = text.charCodeAt(k);
    const next =
      c < 128
        ? (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)
        : LETTER_OR_DIGIT.test(charAt(text, k));
    if (next) n++;
  }
  return n;
}
const LIST_LINE = /^[ \t]*(?:[-•*▪►→–]|\d{1,2}[.)]|\p{Extended_Pictographic}\uFE0F?)[ \t]+\S/gmu;
const SENTENCE_END = /[.!?…]+(?=\s|$)|\n/u;
const HAS_WORD = /[\p{L}\p{N}]/u;
const TAG_CHAR = /[\p{L}\p{N}_]/u;
const EMOJI_CHAR = /^\p{Extended_Pictographic}$/u;

/** Pronoun classes by lower-cased token: 1 first person, 2 first person plural, 3 second person. */
const PRONOUNS = new Map<string, 1 | 2 | 3>([
  ...['i', "i'm", "i've", "i'd", "i'll", 'me', 'my', 'mine', 'myself'].map((w) => [w, 1] as const),
  ...['we', "we're", "we've", "we'll", "we'd", 'our', 'ours', 'us'].map((w) => [w, 2] as const),
  ...['you', 'your', 'yours', 'yourself', "you're", "you've", "you'll", "you'd"].map((w) => [w, 3] as const),
]);

/** Width (1 or 2 code units) of the hashtag character ending at `end`, 0 when there is none. */
const tagCharBefore = (text: string, end: number): number => {
  const c = text.charCodeAt(end - 1);
  if (c < 128)
    return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 ? 1 : 0;
  if (c >= 0xdc00 && c <= 0xdfff && end >= 2) return TAG_CHAR.test(text.slice(end - 2, end)) ? 2 : 0;
  return TAG_CHAR.test(text[end - 1]!) ? 1 : 0;
};
const isSpaceCode = (c: number) => c === 32 || c === 10 || c === 9 || c === 13 || c === 0xa0;

/**
 * The text without its closing run of hashtags (and the space around them), scanned backwards
 * by hand: the equivalent regex anchored at the end retries from every position of the text.
 */
function withoutTrailingHashtags(text: string): string {
  let end = text.length;
  for (;;) {
    let i = end;
    while (i > 0 && isSpaceCode(text.charCodeAt(i - 1))) i--;
    let j = i;
    for (let w = j > 0 ? tagCharBefore(text, j) : 0; w > 0; w = j > 0 ? tagCharBefore(text, j) : 0) j -= w;
    if (j === i || j === 0 || text[j - 1] !== '#') return text.slice(0, end === text.length ? i : end);
    end = j - 1;
    if (end === 0) return '';
  }
}

/** Emoji (Extended_Pictographic code points); only non-ASCII characters are tested. */
function countEmoji(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xa9) continue;
    const wide = c >= 0xd800 && c <= 0xdbff;
    if (EMOJI_CHAR.test(wide ? text.slice(i, i + 2) : text[i]!)) n++;
    if (wide) i++;
  }
  return n;
}

/** Normalises line endings and trailing space; scoring, caching and validation all use it. */
export function normalizePost(text: string): string {
  let out = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  if (out.includes(' \n') || out.includes('\t\n')) out = out.replace(/[ \t]+\n/g, '\n');
  return out.trim();
}

/** The first sentence of a line (the whole line when it has no sentence end). */
export function firstSentence(line: string): string {
  const m = /^.*?[.!?…]+(?=\s|$)/u.exec(line);
  return (m ? m[0] : line).trim();
}

/** Sentences: pieces between terminal punctuation or line breaks that hold a word (linear). */
function countSentences(text: string): number {
  let n = 0;
  for (const piece of text.split(SENTENCE_END)) if (HAS_WORD.test(piece)) n++;
  return n;
}

function countChar(text: string, ch: string): number {
  let n = 0;
  for (let i = text.indexOf(ch); i !== -1; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

/** Runs of a character count once ("??" is one question). */
function countRuns(text: string, ch: string): number {
  let n = 0;
  for (let i = text.indexOf(ch); i !== -1; i = text.indexOf(ch, i + 1)) if (text[i - 1] !== ch) n++;
  return n;
}

function paragraphStats(text: string): { paragraphs: number; longest: number; lines: number } {
  let paragraphs = 0;
  let longest = 0;
  let lines = 0;
  let inParagraph = false;
  for (const line of text.split('\n')) {
    const length = line.trim().length;
    if (length === 0) {
      inParagraph = false;
      continue;
    }
    if (!inParagraph) paragraphs++;
    inParagraph = true;
    lines++;
    // A single line break already breaks the visual block on the feed: measure lines.
    if (line.length > longest) longest = line.length;
  }
  return { paragraphs, longest, lines };
}

export function extractFeatures(raw: string): TextFeatures {
  const text = normalizePost(raw);
  const newline = text.indexOf('\n');
  const firstLine = (newline === -1 ? text : text.slice(0, newline)).trim();
  const tokens = tokenize(text);
  let words = 0;
  let numbers = 0;
  const pronouns = [0, 0, 0, 0];
  for (const t of tokens) {
    if (t === '?' || t === '"') continue;
    words++;
    const c = t.charCodeAt(0);
    if (c >= 48 && c <= 57) numbers++;
    const p = PRONOUNS.get(t);
    if (p !== undefined) pronouns[p]!++;
  }
  const { counts, found } = scanPhrases(tokens);
  const sentences = countSentences(text);
  const { paragraphs, longest, lines } = paragraphStats(text);
  const hasHash = text.includes('#');
  const trimmedEnd = hasHash ? withoutTrailingHashtags(text).trimEnd() : text;
  const nonAscii = /[^\t\n -~]/.test(text);
  return {
    text,
    tokens,
    length: text.length,
    words,
    lines,
    paragraphs,
    longestParagraph: longest,
    hasLineBreaks: newline !== -1,
    sentences,
    avgSentenceWords: sentences === 0 ? 0 : words / sentences,
    firstLine,
    hook: firstSentence(firstLine),
    hashtags: hasHash ? countMatches(HASHTAG, text) : 0,
    links: mayHaveLink(text) ? countMatches(LINK, text) : 0,
    mentions: text.includes('@') ? countMatches(MENTION, text) : 0,
    numbers,
    properNouns: countProperNouns(text),
    questions: countRuns(text, '?'),
    endsWithQuestion: trimmedEnd.endsWith('?'),
    exclamations: countRuns(text, '!'),
    emoji: nonAscii ? countEmoji(text) : 0,
    firstPerson: pronouns[1]!,
    firstPersonPlural: pronouns[2]!,
    secondPerson: pronouns[3]!,
    listLines: newline === -1 ? 0 : countMatches(LIST_LINE, text),
    bait: counts.bait,
    aiTells: counts.aiTells,
    emDashes: countChar(text, '—'),
    notXButY: /not /i.test(text) ? countMatches(NOT_X_BUT_Y, text) : 0,
    // A phrase starting in the first four words ends well within 200 characters.
    genericOpener: hasPhrase(
      'genericOpeners',
      firstLine.length > 200 ? firstLine.slice(0, 200) : firstLine,
      4,
    ),
    jargon: counts.jargon,
    vague: counts.vague,
    callsToComment: counts.callsToComment,
    personalNews: counts.personalNews,
    phrases: found,
  };
}

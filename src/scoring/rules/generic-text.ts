import { PostSpans } from '../text/spans.ts';
import type { TextFeatures } from '../text/text-features.ts';
import {
  candidatePatterns,
  compiled,
  GENERIC_OPENING,
  type GenericKind,
  matchesAtRuns,
} from './generic-text-phrases.ts';
import { hit, quotedList, type RuleContext, type RuleHit, type Said } from './rule-kit.ts';

/**
 * Generic text (the `generic` concept): a post any account could have posted, made of
 * engagement bait, stock lines and machine-written filler, with nothing specific in it. Such
 * posts earned as much as real writing from the model's features (issue 32: a set of formulaic
 * posts scored at the 54th percentile of real posts), because their shape (short lines, a
 * closing question, "thrilled") is the shape of posts that do well. The penalty is a stated
 * prior, as the text-quality rules' are (rules-quality.ts): the feed demotes engagement bait
 * (the default platform's guidance) and readers skip filler, but the training posts cannot price it, since
 * they are posts that were published and read. It applies after the model, to every
 * dimension, so `overall` drops by its points; docs/scoring.md gives the measured figures.
 *
 * Specifics are read from the scan the scorer already made, not from wink-nlp's entities: the
 * scorer never loads the tagger (its 45 MB and its per-post cost stay off the hot path;
 * test/intelligence/tagger-lifecycle.test.ts), and the phrases are only looked for in posts.
 */

export const GENERIC_RULE = 'generic.text';

export interface GenericSpan {
  start: number;
  end: number;
}

export interface GenericPhrase extends GenericSpan {
  /** Bait, a stock line, or a line of a platitude stack. */
  kind: GenericKind | 'line';
  /** As written in the post. */
  text: string;
}

export interface GenericReading {
  /** Bait and stock lines, and the lines of a platitude stack, in order. */
  phrases: GenericPhrase[];
  /** No figure, name, handle or link a reader could check. */
  unspecific: boolean;
  /** Short general lines make up the post, with nothing specific in it. */
  platitudes: boolean;
  /** Units of evidence (`readGeneric`); the points are POINTS_PER_UNIT each. */
  units: number;
}

/** Fewer words than this cannot be judged unspecific: a one-line post has little room for a name. */
const UNSPECIFIC_MIN_WORDS = 12;
/** A platitude stack: this many lines at least, this share of them this short, and nothing specific. */
const STACK_MIN_LINES = 4;
const STACK_SHORT_SHARE = 0.6;
const STACK_SHORT_WORDS = 8;
const STACK_MAX_FIRST_PERSON = 1;
/** Evidence: a distinct bait phrase (two at most), a distinct stock line (three at most). */
const BAIT_UNIT = 1;
const STOCK_UNIT = 0.5;
/** Nothing specific adds this, a platitude stack as much again; a specific post's evidence counts half. */
const UNSPECIFIC_UNIT = 0.75;
const STACK_UNIT = 0.75;
const SPECIFIC_SHARE = 0.5;
/** Points per unit of evidence, and the most the rule takes. */
const POINTS_PER_UNIT = 11;
const MAX_POINTS = 33;

/** A name or product: a capitalised word mid-sentence with a lower-case letter in it ("Maria", "LinkedIn"). */
const NAME = /(?<=[\p{Ll}\p{N},;:)] )\p{Lu}[\p{L}\p{N}]*\p{Ll}[\p{L}\p{N}]*/gu;

function countOf(re: RegExp, text: string): number {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(text) !== null) n++;
  re.lastIndex = 0;
  return n;
}

/** A count of the list that follows, where the post starts ("7 things successful people do:"). */
const LIST_COUNT = /^\s*(\d{1,2})[ \t]+\p{L}/u;

/**
 * The heading's count of the list (1 or 0): a count, not a figure a reader could check. The
 * list's item numbers ("1.", "2)") are not numbers at all (text/numbers.ts).
 */
function listCount(f: TextFeatures): number {
  const count = LIST_COUNT.exec(f.text);
  return count && f.listLines >= Number(count[1]) ? 1 : 0;
}

/** True when nothing in the post could be checked: no figure beyond list counts, no name, handle or link. */
function isUnspecific(f: TextFeatures): boolean {
  if (f.words < UNSPECIFIC_MIN_WORDS || f.mentions > 0 || f.links > 0) return false;
  if (f.numbers > 0 && f.numbers > listCount(f)) return false;
  // Shouted words ("YES", "YOU") are not names, so the scan's count of capitalised words is read again.
  return f.properNouns === 0 || countOf(NAME, f.text) === 0;
}

/** A word as `STACK_SHORT_WORDS` counts them: a run of letters or digits. */
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** The lines of a platitude stack (offsets into the text), or none when the post is not one. */
function platitudeLines(text: string): GenericPhrase[] {
  const lines: GenericPhrase[] = [];
  let short = 0;
  let start = 0;
  for (const line of text.split('\n')) {
    const end = start + line.length;
    const from = start + (line.length - line.trimStart().length);
    const to = end - (line.length - line.trimEnd().length);
    if (to > from) {
      const words = countOf(WORD, line);
      if (words > 0 && words <= STACK_SHORT_WORDS) {
        short++;
        lines.push({ kind: 'line', start: from, end: to, text: text.slice(from, to) });
      } else lines.push({ kind: 'line', start: -1, end: -1, text: '' });
    }
    start = end + 1;
  }
  if (lines.length < STACK_MIN_LINES || short < STACK_SHORT_SHARE * lines.length) return [];
  return lines.filter((l) => l.start >= 0);
}

/** This many lines, one after another, open on the same word: a chant of lines. */
const CHANT_LINES = 3;
const OPENING_WORD = /^[ \t]*([\p{L}]+)/u;

/** Whether CHANT_LINES lines in a row open on the same word (case-blind). */
function chantsOneOpening(text: string): boolean {
  let run = 0;
  let last = '';
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const word = OPENING_WORD.exec(line)?.[1]?.toLowerCase() ?? '';
    run = word !== '' && word === last ? run + 1 : 1;
    last = word;
    if (run >= CHANT_LINES) return true;
  }
  return false;
}

/**
 * The generic phrases of a post, in order, with their UTF-16 offsets into `f.text`. Only the
 * phrases whose longest word is among the post's tokens are tried (generic-text-phrases.ts),
 * so a post with none costs one pass over its word ids.
 */
export function genericPhrases(f: TextFeatures): GenericPhrase[] {
  const out: GenericPhrase[] = [];
  const { text } = f;
  if (f.genericOpener) {
    const opening = GENERIC_OPENING.exec(text);
    if (opening) out.push({ kind: 'stock', start: 0, end: opening[0].length, text: opening[0] });
  }
  const candidates = candidatePatterns(f.wordFacts.ids);
  if (candidates.length === 0) return out;
  // The lower-cased text stands where the text stands unless lower-casing changed a length.
  const inPlace = f.lower.length === text.length;
  for (const p of candidates) {
    const record = (start: number, end: number) => {
      // Where two phrases overlap, the bait's reading wins (its patterns come first for a word).
      const clash = out.findIndex((q) => start < q.end && q.start < end);
      const found = { kind: p.kind, start, end, text: text.slice(start, end) };
      if (clash === -1) out.push(found);
      else {
        // Bait wins over a stock line; of two of a kind, the longer ("Comment 'GUIDE'" over "Comment '").
        const other = out[clash]!;
        const longer = end - start > other.end - other.start;
        if ((p.kind === 'bait' && other.kind === 'stock') || (longer && p.kind === other.kind))
          out[clash] = found;
      }
    };
    // The phrases' patterns open with a lookbehind, which the global search tried at every
    // position of the post: they are tried at the runs of letters they can start at instead.
    if (inPlace && p.opens !== undefined) {
      matchesAtRuns(p as Parameters<typeof matchesAtRuns>[0], f.lower, f.runs, record);
      continue;
    }
    const re = compiled(p.source, !inPlace && !p.onText);
    const subject = p.onText || !inPlace ? text : f.lower;
    re.lastIndex = 0;
    for (let m = re.exec(subject); m !== null; m = re.exec(subject)) record(m.index, m.index + m[0].length);
    re.lastIndex = 0;
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * What is generic about a post. Bait and stock lines are evidence wherever they stand; a post
 * with nothing specific adds to it, and one made of short general lines is a platitude stack
 * even without a stock phrase. A post with specifics is real writing with a habit: its evidence
 * counts half. Only posts with a phrase or with nothing specific read further than the phrase
 * scan.
 */
export function readGeneric(f: TextFeatures): GenericReading {
  const phrases = genericPhrases(f);
  const unspecific = (phrases.length > 0 || f.lines >= STACK_MIN_LINES) && isUnspecific(f);
  // A post in the first person tells of someone (a story, a view held), not of everyone; but
  // short lines that all open on one word ("Grateful for my family. / Grateful for my health.")
  // are a chant, whoever says it.
  const stack =
    unspecific && (f.firstPerson <= STACK_MAX_FIRST_PERSON || chantsOneOpening(f.text))
      ? platitudeLines(f.text)
      : [];
  const distinct = (kind: GenericKind) =>
    new Set(phrases.filter((p) => p.kind === kind).map((p) => p.text.toLowerCase())).size;
  const evidence = BAIT_UNIT * Math.min(2, distinct('bait')) + STOCK_UNIT * Math.min(3, distinct('stock'));
  const units = unspecific
    ? evidence + UNSPECIFIC_UNIT + (stack.length > 0 ? STACK_UNIT : 0)
    : SPECIFIC_SHARE * evidence;
  // The stack's lines are marked where no phrase already marks them.
  const marked = [...phrases];
  for (const line of stack)
    if (!phrases.some((p) => p.start < line.end && line.start < p.end)) marked.push(line);
  return {
    phrases: marked.sort((a, b) => a.start - b.start),
    unspecific,
    platitudes: stack.length > 0,
    units,
  };
}

/**
 * Whether the rule speaks: on any bait, on two stock lines, or on a post with nothing specific
 * that holds a stock line or is a platitude stack. One stock phrase in real writing is a habit.
 */
const fires = (r: GenericReading, bait: number, stock: number) =>
  bait > 0 || stock >= 2 || (r.unspecific && (stock > 0 || r.platitudes));

/** The phrases a signal quotes: distinct, as written, the first three. */
function firstDistinct(phrases: GenericPhrase[]): string[] {
  const seen = new Map<string, string>();
  for (const p of phrases) {
    const key = p.text.toLowerCase().replace(/\s+/g, ' ');
    // A quote inside the quoted phrase ('Comment "GUIDE"') reads as a single one inside it.
    if (!seen.has(key)) seen.set(key, p.text.replace(/\s+/g, ' ').replace(/["“”]/g, "'"));
  }
  return [...seen.values()].slice(0, 3);
}
const quoted = (phrases: GenericPhrase[]) => quotedList(firstDistinct(phrases));
const distinct = (phrases: GenericPhrase[]) => firstDistinct(phrases).length;

/** The one sentence the writer reads: the strongest evidence first, then what to do. */
export function genericDetail(reading: GenericReading, bait: GenericPhrase[], stock: GenericPhrase[]): Said {
  const stockLines = (n: number) => (n === 1 ? 'is a stock line' : 'are stock lines');
  const plain = reading.unspecific ? '; nothing in the post is specific (no name, figure or example)' : '';
  const act = 'say what happened and give a detail that a reader could check';
  if (bait.length > 0) {
    const also =
      stock.length > 0
        ? `, and ${quoted(stock)} ${stockLines(distinct(stock))} that any post could hold`
        : '';
    return {
      finding: `The feed demotes engagement bait such as ${quoted(bait)}${also}${plain}`,
      act: 'cut the bait and give readers something specific to answer',
    };
  }
  if (stock.length > 0)
    return {
      finding: `${quoted(stock)} ${stockLines(distinct(stock))} that any post could hold${plain}`,
      act,
    };
  return { finding: `The post is a stack of short general lines that any account could post${plain}`, act };
}

export interface GenericHit extends RuleHit {
  spans: GenericSpan[];
  /** The post is a platitude stack: its short lines are the formula, not a layout to keep. */
  platitudes: boolean;
}

export function genericTextRules({ f, input }: RuleContext, hits: RuleHit[]): void {
  const reading = readGeneric(f);
  const found = reading.phrases.filter((p) => p.kind !== 'line');
  const bait = found.filter((p) => p.kind === 'bait');
  const stock = found.filter((p) => p.kind === 'stock');
  const distinctStock = new Set(stock.map((p) => p.text.toLowerCase())).size;
  if (!fires(reading, bait.length, distinctStock)) return;
  const points = -Math.min(MAX_POINTS, Math.round(POINTS_PER_UNIT * reading.units));
  const post = new PostSpans(input.post, f.text);
  hits.push({
    ...hit(
      GENERIC_RULE,
      'voice',
      points,
      'Generic text',
      genericDetail(reading, bait, stock),
      points <= -18 ? 5 : 4,
    ),
    // Into the post as submitted (text/spans.ts maps the normalised text back).
    spans: reading.phrases.map(({ start, end }) => post.span(start, end)),
    platitudes: reading.platitudes,
  } as GenericHit);
}

import { inventedFacts } from '../text/facts.ts';
import { cutAtWord, paragraphsOf, splitSentences } from '../text/rewrite-sentences.ts';

/**
 * Fitting a post to a platform's length limit by dropping whole lines, or whole sentences when
 * lines are too coarse, so everything left is the author's own words, whole. Kept first: the
 * opening (the hook) and the author's closing question; then what carries a fact (a number,
 * name, link or @mention: what makes a post specific); then other questions; then the rest.
 * Among equals the later one goes first. Paragraph and line breaks of what stays are kept.
 */

export interface FittedText {
  text: string;
  /** The lines or sentences that went, in the post's order. */
  dropped: string[];
  /** What `dropped` holds: whole lines, or sentences when lines were too coarse. */
  unit: Granularity;
  /** The opening sentence had to be cut mid-sentence (no whole sentence fits). */
  truncated: boolean;
}

interface Unit {
  index: number;
  paragraph: number;
  line: number;
  text: string;
}

export type Granularity = 'line' | 'sentence';

/** A question mark, then at most closing quotes, brackets or an emoji. */
const ENDS_IN_QUESTION = /\?[^\p{L}\p{N}]*$/u;
const TAGS_ONLY = /^(?:#[\p{L}\p{N}_]+\s*)+$/u;
/** A list item: a bullet, a number or an emoji opens it. */
const LIST_ITEM = /^(?:[-–—•*▪►→]|\d{1,2}[.)/]|\p{Extended_Pictographic})/u;
/** A unit that points back at the one before it ("The same is true", "This is why"). */
const REFERS_BACK =
  /^(?:this|that|these|those|it|its|they|them|the same|same|such|so|which|both|here|there|then|but|and|or|also|too)\b/i;

/**
 * Units that cannot go alone without breaking what is left: a list item (the list would miss
 * one) and a unit the next one points back at (the next would point at nothing).
 */
function boundUnits(units: Unit[]): Set<Unit> {
  const out = new Set<Unit>();
  units.forEach((u, i) => {
    const next = units[i + 1];
    if (LIST_ITEM.test(u.text) || (next && REFERS_BACK.test(next.text))) out.add(u);
  });
  return out;
}

function unitsOf(text: string, granularity: Granularity): Unit[] {
  const units: Unit[] = [];
  paragraphsOf(text).forEach((p, paragraph) => {
    p.split('\n').forEach((l, line) => {
      const pieces = granularity === 'line' ? [l.trim()].filter(Boolean) : splitSentences(l.trim());
      for (const s of pieces) units.push({ index: units.length, paragraph, line, text: s });
    });
  });
  return units;
}

const closingOf = (units: Unit[]) => {
  const last = units.filter((u) => !TAGS_ONLY.test(u.text)).at(-1);
  return last && ENDS_IN_QUESTION.test(last.text) ? last : undefined;
};

/** The post's last sentence (closing hashtags aside) when it is a question; else null. */
export const closingQuestionOf = (text: string): string | null =>
  closingOf(unitsOf(text, 'sentence'))?.text ?? null;

/** The opening and the closing question rank highest: they go only when they cannot both stay. */
function rankOf(unit: Unit, closing: Unit | undefined): number {
  if (unit.index === 0 || unit === closing) return 4;
  if (TAGS_ONLY.test(unit.text)) return 0;
  // Every fact token of the text is "invented" against an empty source.
  if (inventedFacts('', unit.text).length) return 3;
  return ENDS_IN_QUESTION.test(unit.text) ? 2 : 1;
}

/** Units back into text: sentences of a line joined by a space, lines by a break, paragraphs by a blank line. */
function joinUnits(units: Unit[]): string {
  let out = '';
  units.forEach((u, i) => {
    const prev = units[i - 1];
    if (prev) out += prev.paragraph !== u.paragraph ? '\n\n' : prev.line !== u.line ? '\n' : ' ';
    out += u.text;
  });
  return out;
}

/**
 * Drops units outside `mustKeep`, least ranked and latest first, until the rest fits `budget`;
 * `strict` also keeps every bound unit (list items, what the next unit points back at).
 */
function select(units: Unit[], budget: number, mustKeep: (Unit | undefined)[], strict: boolean): Unit[] {
  const closing = closingOf(units);
  const rank = new Map(units.map((u) => [u, rankOf(u, closing)]));
  const bound = strict ? boundUnits(units) : new Set<Unit>();
  const kept = new Set(units);
  const keptText = () => joinUnits(units.filter((u) => kept.has(u)));
  const dropOrder = units
    .filter((u) => !mustKeep.includes(u) && !bound.has(u))
    .sort((a, b) => rank.get(a)! - rank.get(b)! || b.index - a.index);
  for (const u of dropOrder) {
    if (keptText().length <= budget) break;
    kept.delete(u);
  }
  // A long unit going may leave room for a shorter one dropped before it: most specific first.
  for (const u of [...dropOrder].reverse()) {
    if (kept.has(u)) continue;
    kept.add(u);
    if (keptText().length > budget) kept.delete(u);
  }
  // What introduces the next unit ("Three changes:") does not stay without it.
  for (const u of units) {
    const next = units[u.index + 1];
    if (kept.has(u) && u.index > 0 && /:$/.test(u.text) && next && !kept.has(next)) kept.delete(u);
  }
  return units.filter((u) => kept.has(u));
}

/**
 * Whole lines or sentences within `budget`, keeping list items and referents whole while that
 * can fit, and in this order of preference: the opening and the
 * closing question kept, then only the question, then the most specific units that fit; lines
 * before sentences at each step, as dropping a line leaves its neighbours reading as written.
 * Only when no whole sentence fits is the opening cut short at a word.
 */
export function fitSentences(text: string, budget: number): FittedText {
  const byLine = unitsOf(text, 'line');
  const bySentence = unitsOf(text, 'sentence');
  const both = (u: Unit[]) => [u[0], closingOf(u)];
  const question = (u: Unit[]) => [closingOf(u)];
  // Strict first: a list item or a referent is cut only when nothing else can make the post fit.
  const tries = [
    { strict: true, keep: both },
    { strict: true, keep: question },
    { strict: false, keep: both },
    { strict: false, keep: question },
    { strict: false, keep: () => [] },
  ];
  for (const { strict, keep } of tries) {
    for (const unit of ['line', 'sentence'] as const) {
      const units = unit === 'line' ? byLine : bySentence;
      const kept = select(units, budget, keep(units), strict);
      const fitted = joinUnits(kept);
      if (kept.length && fitted.length <= budget) {
        const dropped = units.filter((u) => !kept.includes(u)).map((u) => u.text);
        return { text: fitted, dropped, unit, truncated: false };
      }
    }
  }
  const hook = bySentence[0]!.text;
  const dropped = bySentence.slice(1).map((u) => u.text);
  return { text: cutAtWord(hook, budget), dropped, unit: 'sentence', truncated: true };
}

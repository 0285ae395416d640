import { inventedFacts } from '../text/facts.ts';
import { cleanBrief } from './brief-clean.ts';
import { withoutFiller } from './brief-filler.ts';
import { readBrief } from './brief-reading.ts';
import { BLANK } from './draft-shapes.ts';

/**
 * What a set of drafts from one brief must hold, whichever engine wrote them (issues 22 and 34):
 * no draft repeats the brief's labels or instructions ("Tone: ...", "Write a post about ..."),
 * every draft keeps every number of the brief and at least 80% of its named specifics, a marked
 * blank stands only where the brief gives no fact (a brief of two or more sentences gives them;
 * a blank asking for a figure never where the brief has one), and drafts differ in structure
 * (their layout or the order they tell the brief in), not only in a template line. The model
 * engine retries once with the problems and else answers offline; the offline engine is tested
 * against the same checks.
 */

export const MIN_SPECIFICS_KEPT = 0.8;
export const MAX_WORD_OVERLAP = 0.7;

/**
 * A text as the checks compare it: lower case, one apostrophe, and a number without its
 * thousands separators, so "12,000" in the brief is kept by "12000" in a draft and the other way.
 */
const lower = (s: string) =>
  s
    .toLowerCase()
    .replace(/[’]/g, "'")
    .replace(/(?<=\d)[,\u202F\u00A0](?=\d{3}(?!\d))/g, '');

/** The brief's numbers, links, @mentions and names, once each (of its content, not its labels). */
export function specificsOf(brief: string): string[] {
  return [...new Set(inventedFacts('', contentOf(brief)))];
}

/** The brief's content as one text: its sentences but its filler (brief-filler.ts), links, hashtags and own question. */
export function contentOf(brief: string): string {
  const b = withoutFiller(readBrief(brief));
  if (b.topic !== null) return cleanBrief(brief).text || brief;
  return [...b.sentences, ...(b.question ? [b.question] : []), ...b.links, ...b.hashtags].join('\n');
}

/** Share of the brief's specifics a draft still has (1 when the brief has none). */
export function specificsKept(brief: string, draft: string): number {
  const specifics = specificsOf(brief);
  if (!specifics.length) return 1;
  const text = lower(draft);
  return specifics.filter((s) => text.includes(lower(s))).length / specifics.length;
}

const NUMBER = /(?<![\p{L}\d])\d+(?:[.,]\d+)*/gu;
const numbersIn = (s: string) => [...new Set((s.match(NUMBER) ?? []).map((n) => n.replace(/,/g, '')))];

/** The brief's numbers a draft does not have ("22", "9", "12"). */
export function numbersMissing(brief: string, draft: string): string[] {
  const have = new Set(numbersIn(draft));
  return numbersIn(contentOf(brief)).filter((n) => !have.has(n));
}

/** A line that is a brief's label, not a sentence of a post. */
const LABEL_LINE =
  /(?:^|\n|[.!?]\s+)(?:tone|audience|target audience|link|url|cta|call to action|goal|format|length|hashtags|voice|style)\s*:/i;

/** The label or instruction of the brief a draft repeats, if any. */
export function pastedFromBrief(brief: string, draft: string): string | null {
  const text = lower(draft);
  const dropped = [...readBrief(brief).dropped, ...cleanBrief(brief).dropped];
  const pasted = dropped.find((d) => d.split(/\s+/).length >= 2 && text.includes(lower(d)));
  if (pasted) return pasted;
  return (
    LABEL_LINE.exec(draft)?.[0]
      .replace(/^[\s.!?]+/, '')
      .trim() ?? null
  );
}

/**
 * The blanks of a draft that stand where the brief gave the fact: any blank when the brief tells
 * two sentences or more, and a blank asking for a figure when the brief has one.
 */
export function blanksWhereGiven(brief: string, draft: string): string[] {
  // Brackets the brief itself wrote ("Strike an [uncertain] pose") are its words, not blanks.
  const blanks = (draft.match(BLANK) ?? []).filter((x) => !brief.includes(x));
  if (!blanks.length) return [];
  const b = readBrief(brief);
  if (b.topic !== null) return [];
  if (b.sentences.length >= 2) return blanks;
  const figures = numbersIn(contentOf(brief)).length > 0;
  return blanks.filter((x) => figures && /\b(?:number|figure|result|metric|how many|how much|%)/i.test(x));
}

const wordSet = (s: string) => new Set(lower(s).match(/[\p{L}\p{N}']+/gu) ?? []);

/** Jaccard overlap of two drafts' word sets, the words of `brief` (when given) set aside. */
export function wordOverlap(a: string, b: string, brief = ''): number {
  const own = wordSet(brief);
  const x = new Set([...wordSet(a)].filter((w) => !own.has(w)));
  const y = new Set([...wordSet(b)].filter((w) => !own.has(w)));
  let both = 0;
  for (const w of x) if (y.has(w)) both++;
  const union = x.size + y.size - both;
  return union ? both / union : 1;
}

const squashed = (s: string) =>
  lower(s)
    .replace(/[^\p{L}\p{N}%$]+/gu, ' ')
    .trim();

/**
 * A draft's structure: the kind of each block (a paragraph or a list) and the order in which it
 * tells the brief's sentences. Two drafts with the same structure differ only in added lines.
 */
export function structureOf(brief: string, draft: string): string {
  const blocks = draft
    .split(/\n\s*\n/)
    .map((p) => (/^\s*[-•*]\s/m.test(p) ? 'list' : 'para'))
    .join(',');
  const text = squashed(draft);
  const order = readBrief(brief)
    .sentences.map((s, i) => ({ i, at: text.indexOf(squashed(s).split(' ').slice(0, 6).join(' ')) }))
    .filter((x) => x.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((x) => x.i)
    .join(',');
  return `${blocks}|${order}`;
}

/** Whether two drafts of a brief have one structure and share most of the words they add to it. */
export function sameShape(brief: string, a: string, b: string): boolean {
  return structureOf(brief, a) === structureOf(brief, b) && wordOverlap(a, b, brief) >= MAX_WORD_OVERLAP;
}

/** Every problem of one draft, said so a writer (or a model's retry) can act on it. */
export function draftProblems(brief: string, draft: string): string[] {
  const out: string[] = [];
  const pasted = pastedFromBrief(brief, draft);
  if (pasted) out.push(`it repeats the brief's label or instruction "${pasted}": write the post itself`);
  const missing = numbersMissing(brief, draft);
  if (missing.length) out.push(`it drops the brief's figures ${missing.join(', ')}: keep every one`);
  else if (specificsKept(brief, draft) < MIN_SPECIFICS_KEPT)
    out.push(`it drops the brief's names; keep them all: ${specificsOf(brief).join(', ')}`);
  const blanks = blanksWhereGiven(brief, draft);
  if (blanks.length)
    out.push(`it leaves ${blanks.join(', ')} where the brief gives the fact: use the brief's own words`);
  return out;
}

/** The first problem of a set of drafts, said for a retry; null when they pass. */
export function draftProblem(brief: string, drafts: string[]): string | null {
  for (const [i, d] of drafts.entries()) {
    const problems = draftProblems(brief, d);
    if (problems.length) return `draft ${i + 1}: ${problems.join('; ')}`;
  }
  for (let i = 0; i < drafts.length; i++)
    for (let j = i + 1; j < drafts.length; j++)
      if (sameShape(brief, drafts[i]!, drafts[j]!))
        return `drafts ${i + 1} and ${j + 1} have one structure: give each its own (the result first, the story in order, a list)`;
  return null;
}

import type { HookArchetype } from '../../domain/enums.ts';
import { hasPhrase } from '../text/phrases.ts';
import { type Theme, themesOf } from '../text/themes.ts';
import { isGenreTheme } from './brief-clean.ts';
import type { BriefReading } from './brief-reading.ts';

/**
 * The shapes an offline draft can take, each made only of the brief's own sentences in another
 * order or layout: the story in the brief's order, the result first (the sentence holding the
 * most figures opens), and the points as a list under the opening sentence. No shape adds a
 * hook line: the hook is always one of the brief's sentences, so no two briefs share one.
 *
 * The few words a shape may add are CONNECTIVES (documented in docs/generate.md), the closing
 * question of a post that invites experience (`experienceQuestion`), and, for a brief that is
 * only a label, marked blanks for the facts it does not give.
 */

export type Shape = 'story' | 'result' | 'list' | 'question';

/** Every phrase a draft may add to the brief's sentences (besides blanks and the closing question). */
export const CONNECTIVES = ['What happened:', 'The result:', 'In order:'] as const;

/** A blank: a fact the brief does not give, for the writer to fill in. */
export const BLANK = /\[[^\]\n]+\]/g;

/** Sentences that lean on the one before them ("It", "This", "But"): they never move away from it. */
const POINTS_BACK =
  /^(?:this|that|these|those|it|its|it's|it’s|they|them|their|he|she|his|her|him|but|and|so|or|because|which|who|also|then|yes,|no,|same|here|there|such|both|another|still|even|again|instead|otherwise|however|yet|plus|now|in fact|as a result|for example|for instance|in other words|that said|after that|even so|in short)\b/i;

/**
 * A pronoun in a sentence's first clause that stands for something said before it ("We replaced
 * ours with a written update" after "standups are a waste of time"): such a sentence cannot open.
 */
const LEANS_BACK = /\b(?:ours|theirs|hers|he|she|him|they|them)\b/i;
const leansBack = (s: string) =>
  POINTS_BACK.test(s.trim()) || LEANS_BACK.test(s.split(/[,;:–—]|\s(?:and|but)\s/)[0]!);
/** A question that can open a post on its own: a clause of four words or more, not "Interested?". */
const QUESTION_MIN_WORDS = 4;
/**
 * ...that asks from its first word: "Check out the feature we built 🧑‍🔬 Interested and ...?" ends
 * on a question mark but opens on an imperative (wink keeps it one sentence across the emoji).
 */
const ASKS =
  /^\W*(?:what|how|why|when|where|which|who|whose|whom|is|are|was|were|do|does|did|have|has|had|can|could|would|will|should|shall|may|might|must|ever|if|anyone|any)\b/i;

/** Sentences grouped with the ones that point back at them. */
export function units(sentences: string[]): string[][] {
  const out: string[][] = [];
  for (const s of sentences) {
    const last = out.at(-1);
    if (last && POINTS_BACK.test(s.trim())) last.push(s);
    else out.push([s]);
  }
  return out;
}

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
/**
 * Numbers that say when, not how much: dates ("June 30", "3 May"), years, clock times ("14:05") and
 * keycap list markers ("1️⃣"). "Apply by June 30." is no result to open with.
 */
const WHEN = new RegExp(
  `\\b${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?\\b|\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}\\b|\\b(?:19|20)\\d{2}\\b|\\b\\d{1,2}:\\d{2}\\b|\\d\\uFE0F?\\u20E3`,
  'giu',
);
const figures = (s: string) => (s.replace(WHEN, ' ').match(/(?<![\p{L}\d])\d+(?:[.,]\d+)*/gu) ?? []).length;
/** Verbs that say what came of something: a sentence with one and a figure is the result. */
const OUTCOME =
  /\b(?:cut|cuts|grew|grow|rose|fell|dropped|doubled|tripled|halved|saved|earned|reached|hit|lost|won|broke|failed|raised|increased|decreased|reduced|improved|went from|from \S+ to)\b/i;
/** How strongly a sentence reads as the result: its figures, and an outcome verb beside them. */
const resultWeight = (s: string) => (figures(s) ? figures(s) + (OUTCOME.test(s) ? 2 : 0) : 0);
const stripEnd = (s: string) => s.replace(/[.!?…:;,]+$/u, '').trim();
const bullets = (lines: string[]) => lines.map((l) => `- ${stripEnd(l)}`).join('\n');

/** Paragraphs of one or two sentences (one per line when the voice says one idea per line). */
export function paragraphs(sentences: string[], oneEach: boolean): string[] {
  const groups = units(sentences);
  if (oneEach) return groups.map((g) => g.join(' '));
  const out: string[] = [];
  for (const g of groups) {
    const last = out.at(-1);
    // Two short sentences share a paragraph; a long one stands alone.
    // The first sentence (the hook) stands alone; two short sentences after it share a paragraph.
    if (last && out.length > 1 && last.length + g.join(' ').length < 220)
      out[out.length - 1] = `${last} ${g.join(' ')}`;
    else out.push(g.join(' '));
  }
  return out;
}

export interface ShapeOptions {
  oneIdeaPerLine: boolean;
}

/**
 * The draft of a shape as blocks (paragraphs, a list), or null when the brief cannot take that
 * shape (no figures to lead with, too few sentences for a list, no question of its own).
 */
export function shapeBlocks(shape: Shape, b: BriefReading, o: ShapeOptions): string[] | null {
  const blocks = shapeOf(shape, b, o);
  return blocks && !o.oneIdeaPerLine ? runOnOpening(blocks) : blocks;
}

/**
 * How long the opening paragraph runs before it may end: among the same authors' posts, a first
 * line shorter than this standing alone went with less engagement (the learned model's
 * text.hook_own_line; the rewrite's layout passes keep to the same threshold), and the score
 * then told the writer to run it on.
 */
const OPENING_RUN = 160;
const isList = (block: string) => /^- /m.test(block);

/**
 * The opening paragraph run on into the next ones until it is OPENING_RUN long; a heading or a
 * list stays apart, and a draft is never run into one paragraph (that is the brief as it came).
 */
function runOnOpening(blocks: string[]): string[] {
  const out = [...blocks];
  while (
    out.length > 2 &&
    out[0]!.length < OPENING_RUN &&
    !/:$/.test(out[0]!) &&
    !isList(out[0]!) &&
    !isList(out[1]!) &&
    !/:$/.test(out[1]!)
  )
    out.splice(0, 2, `${out[0]} ${out[1]}`);
  return out;
}

function shapeOf(shape: Shape, b: BriefReading, o: ShapeOptions): string[] | null {
  const s = b.sentences;
  switch (shape) {
    case 'story': {
      if (!b.heading) return paragraphs(s, o.oneIdeaPerLine);
      // Each point its own paragraph, in the brief's order, under the brief's own heading.
      const at = s.indexOf(b.heading) + 1;
      const after = s.slice(at).filter((x) => !b.points.includes(x));
      return [...paragraphs(s.slice(0, at), o.oneIdeaPerLine), ...b.points, ...after];
    }
    case 'result': {
      const groups = units(s);
      // The result: the later sentence with the most figures (an outcome verb counts double).
      // None, or only the first has figures: the story shape leads with it already.
      let best = -1;
      for (let i = 1; i < groups.length; i++)
        if (
          !leansBack(groups[i]![0]!) &&
          resultWeight(groups[i]!.join(' ')) > (best < 0 ? 0 : resultWeight(groups[best]!.join(' ')))
        )
          best = i;
      if (best < 0) return null;
      const lead = groups[best]!;
      if (b.heading && lead.some((x) => b.points.includes(x))) {
        // Under the brief's heading ("Five lessons ...:"), the point with the figures comes first.
        const at = s.indexOf(b.heading) + 1;
        const after = s.slice(at).filter((x) => !b.points.includes(x));
        const points = [lead.join(' '), ...b.points.filter((p) => !lead.includes(p))];
        return [...paragraphs(s.slice(0, at), o.oneIdeaPerLine), bullets(points), ...after];
      }
      const others = groups.filter((_, i) => i !== best).flat();
      return [lead.join(' '), ...paragraphs(others, o.oneIdeaPerLine)];
    }
    case 'list': {
      if (b.heading) {
        const before = s.slice(0, s.indexOf(b.heading) + 1);
        const after = s.slice(s.indexOf(b.heading) + 1).filter((x) => !b.points.includes(x));
        return [...paragraphs(before, o.oneIdeaPerLine), bullets(b.points), ...after];
      }
      if (b.points.length >= 2) {
        const lead = s.filter((x) => !b.points.includes(x));
        return [...paragraphs(lead, o.oneIdeaPerLine), bullets(b.points)];
      }
      // The opening sentence, then the rest as a list: at least two items, none pointing back.
      const groups = units(s);
      if (groups.length < 3) return null;
      const [first, ...rest] = groups;
      if (rest.some((g) => g.some((x) => /\?["'’”)]*$/u.test(x)))) return null;
      return [first!.join(' '), bullets(rest.map((g) => g.join(' ')))];
    }
    case 'question': {
      // The brief's own question opens, and what it says answers it.
      const q = s.find(
        (x) =>
          /\?["'’”)]*$/u.test(x) &&
          x !== s[0] &&
          !leansBack(x) &&
          ASKS.test(x) &&
          (x.match(/[\p{L}\p{N}']+/gu) ?? []).length >= QUESTION_MIN_WORDS,
      );
      if (!q || POINTS_BACK.test(s[s.indexOf(q) + 1] ?? '')) return null;
      return [
        q,
        ...paragraphs(
          s.filter((x) => x !== q),
          o.oneIdeaPerLine,
        ),
      ];
    }
  }
}

/** Which shape a requested hook archetype asks for first. */
export const SHAPE_OF: Record<HookArchetype, Shape> = {
  story: 'story',
  'pure-number': 'result',
  statement: 'list',
  contrarian: 'story',
  question: 'question',
  other: 'story',
};

/** Words that say a post is an offer, an opening or a launch, which readers are not asked about. */
const NOT_ASKED =
  /\b(?:hiring|we'?re looking for|join (?:us|our team)|apply|applications?|open roles?|job|vacanc(?:y|ies)|launch(?:es|ed|ing)?|available (?:now|today)|pre-?order|sign up|register|price|pricing|discount|\d+% off|webinar|event on|tickets?)\b/i;
/** Words of a post that tells what the writer learned: readers can answer with their own. */
const LEARNED =
  /\b(?:lessons?|learned|learnt|mistakes?|taught (?:me|us)|wish (?:I|we) had known|looking back|in hindsight|what worked|what didn'?t work)\b/i;

/**
 * The closing question of a post that invites experience: what the reader learned about the
 * brief's own topic ("What have you learned about night shifts?"). Null for news, offers, job
 * ads and launches, and when the brief asks its own question.
 */
export function experienceQuestion(b: BriefReading): string | null {
  if (b.question || b.news || b.topic !== null) return null;
  const text = b.sentences.join(' ');
  // Lessons and mistakes said in the opening ("Five lessons from ...:"): a learned word further
  // on ("a proverb I learned from my dad") does not make the topic a reader's experience.
  const opening = b.heading ?? b.sentences[0]!;
  if (NOT_ASKED.test(text) || !/\b(?:lessons?|mistakes?|what (?:I|we) learned)\b/i.test(opening)) return null;
  // The topic the opening names ("running Airflow DAGs"): a phrase of its own words that reads
  // after "about" as it is, never the writer's own thing ("my piece") or a kind of post.
  const theme: Theme | undefined = themesOf(opening, 6).find(
    (t) =>
      !hasPhrase('contrarian', t.phrase) &&
      !LEARNED.test(t.text) &&
      !isGenreTheme(t.text) &&
      !/^(?:my|our|your|his|her|their)\b/i.test(t.text) &&
      t.phrase === t.reader &&
      !t.articleUnknown &&
      !t.proper &&
      (t.plural || /ing\b/.test(t.text.split(/\s+/)[0]!)) &&
      t.text.split(/\s+/).length <= 4 &&
      !/\d/.test(t.text),
  );
  if (!theme) return null;
  return `What have you learned about ${theme.phrase}?`;
}

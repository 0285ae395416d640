import { CONCEPTS, type Concept, RULE_CONCEPTS } from '../concepts.ts';
import { FEATURE_NAMES, FEATURES } from '../learned/features.ts';
import type { RuleHit } from '../rules/rule-kit.ts';
import type { Signal } from '../types.ts';
import type { JudgeNote } from './judge.ts';

/**
 * The rules a language model's notes obey beside the score (issue 32): a note is a signal a
 * writer reads, so it holds to what the score's own signals hold to. It never gives a second say
 * on a concept a rule or learned feature already speaks for (nor on one an earlier note took),
 * never points the other way from what the score counts for its concept, and names no id, no
 * internal name (a rule's or feature's name, a field or enum written as code) and no epoch
 * number. The model judge asks for a retry naming the broken rules (model/engine.ts); the scorer
 * drops any note that still breaks one (scorer.ts), so no engine can show it.
 */

export type NoteRule = 'concept_spoken' | 'contradicts_score' | 'internal_name' | 'epoch_number';

export interface NoteBreak {
  rule: NoteRule;
  /** What is wrong, for the model's retry. */
  problem: string;
}

export interface NoteContext {
  /** Concepts already spoken for. */
  spoken: ReadonlySet<Concept>;
  /**
   * What the score counts for a concept on this post (points, + or -; 0 when it counts nothing).
   * At judge time only the judge's own grade is known; in the scorer, every feature's effect.
   */
  net: (concept: Concept) => number;
}

/** The concept a note speaks for when the model names none: its dimension's. */
const DIMENSION_CONCEPT: Record<JudgeNote['dimension'], Concept> = {
  hook: 'opening',
  algorithmFit: 'format',
  specificity: 'specifics',
  structure: 'layout',
  voice: 'voice',
  engagement: 'questions',
};

/**
 * The words by which a note talks about a concept besides its own: a note filed under "hook"
 * that says "too many hashtags" speaks for hashtags too. Concept names from concepts.ts, in the
 * words its descriptions use.
 */
const MENTIONS: Readonly<Record<Concept, RegExp>> = {
  opening: /\b(?:opening|first line|hook|headline)\b/i,
  length: /\b(?:length|characters?|word count|too (?:long|short)|shorter|longer)\b/i,
  layout: /\b(?:line breaks?|paragraphs?|white space|wall of text|bullets?|layout)\b/i,
  sentences: /\bsentences?\b/i,
  repetition: /\b(?:repeats?|repeated|repetition|repetitive)\b/i,
  specifics: /\b(?:numbers?|figures?|specifics?|specificity|concrete|examples?|vague|jargon)\b/i,
  voice: /\b(?:voice|tone|first person|emoji|exclamation)\b/i,
  story: /\b(?:story|stories|anecdotes?|milestone)\b/i,
  questions: /\b(?:questions?|asks?|replies|reply|comments?|respond|call to action)\b/i,
  tags: /(?:^|\s)@\w|\b(?:tags?|tagged|tagging|mentions?)\b/i,
  hashtags: /#\w|\bhashtags?\b/i,
  links: /https?:\/\/|\b(?:links?|urls?)\b/i,
  format: /\b(?:images?|photos?|videos?|documents?|carousels?|polls?|format)\b/i,
  timing: /\b(?:timing|weekends?|weekdays?|morning|evening|time of day|posting time|hour)\b/i,
  generic: /\b(?:generic|clichés?|cliches?|platitudes?|buzzwords?|bait|machine-written|AI-written)\b/i,
  word_choice: /\b(?:word choice|wording)\b/i,
};

/** The concepts a note speaks for: its own first, then any it talks about. */
export function conceptsOfNote(note: JudgeNote): Concept[] {
  const own = note.concept ?? DIMENSION_CONCEPT[note.dimension];
  const text = `${note.label} ${note.detail}`;
  return [own, ...CONCEPTS.filter((c) => c !== own && MENTIONS[c].test(text))];
}

const INTERNAL_NAMES: ReadonlySet<string> = new Set([
  ...Object.keys(RULE_CONCEPTS),
  ...FEATURE_NAMES,
  'heuristic',
]);

/** A name written as code or an id: dotted, snake_case or camelCase identifiers, uuids, prefixed ids. */
const CODE_LIKE =
  /\b(?:[a-z]+(?:\.[a-z0-9_]+)+|[a-z]+_[a-z0-9_]+|[a-z]{2,}[A-Z][A-Za-z0-9]*|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z]{2,5}_[0-9A-Za-z]{12,})\b/g;
/** Seconds or milliseconds since 1970: ten or thirteen digits in a row. */
const EPOCH = /(?<![\d.,])\d{10}(?:\d{3})?(?![\d.,])/;

/** Abbreviations that look dotted but are English. */
const DOTTED_ENGLISH = new Set(['e.g', 'i.e', 'a.m', 'p.m', 'vs']);

function internalNamesIn(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(CODE_LIKE)) {
    const w = m[0];
    if (DOTTED_ENGLISH.has(w.toLowerCase())) continue;
    found.add(w);
  }
  for (const name of INTERNAL_NAMES) if (text.includes(name)) found.add(name);
  return [...found];
}

const WAY = { positive: 'helps', negative: 'hurts' } as const;

/** Every rule `note` breaks in `context`. */
export function noteBreaks(note: JudgeNote, context: NoteContext): NoteBreak[] {
  const out: NoteBreak[] = [];
  const concepts = conceptsOfNote(note);
  const said = concepts.filter((c) => context.spoken.has(c));
  if (said.length)
    out.push({
      rule: 'concept_spoken',
      problem: `the note "${note.label}" speaks about ${said.join(', ')}, which the score or an earlier note already speaks for: leave it out or speak about something else`,
    });
  const against = concepts.find((c) => {
    const net = context.net(c);
    return Math.abs(net) >= 0.05 && net > 0 !== (note.impact === 'positive');
  });
  if (against)
    out.push({
      rule: 'contradicts_score',
      problem: `the note "${note.label}" says the ${against} ${WAY[note.impact]} while the score counts it the other way: match the score's direction or leave it out`,
    });
  const text = `${note.label} ${note.detail}`;
  const names = internalNamesIn(text);
  if (names.length)
    out.push({
      rule: 'internal_name',
      problem: `the note "${note.label}" names ${names.join(', ')}: write for the writer, with no ids, field names or rule names`,
    });
  if (EPOCH.test(text))
    out.push({
      rule: 'epoch_number',
      problem: `the note "${note.label}" gives a raw timestamp: say a day or time in words, or leave it out`,
    });
  return out;
}

/**
 * The notes a writer may read, as signals: each note that breaks no rule, in order, taking its
 * concepts (so a second note on one of them is a second say). `spoken` is added to.
 */
export function keptNotes(
  notes: readonly JudgeNote[],
  spoken: Set<Concept>,
  net: NoteContext['net'],
): Signal[] {
  const out: Signal[] = [];
  for (const note of notes) {
    if (noteBreaks(note, { spoken, net }).length) continue;
    const [concept, ...more] = conceptsOfNote(note);
    for (const c of [concept!, ...more]) spoken.add(c);
    const { concept: _stated, ...rest } = note;
    out.push({ ...rest, concept: concept!, spans: [] });
  }
  return out;
}

/**
 * What the score counts for `concept` on a post: the learned effects of its features, and the
 * points its rules' penalties and caps took after the model (scorer.ts `after`).
 */
export function netOfConcept(
  concept: Concept,
  effects: Float64Array,
  hits: readonly RuleHit[],
  after: ReadonlyMap<string, number>,
): number {
  let net = 0;
  for (let i = 0; i < FEATURES.length; i++) if (FEATURES[i]!.concept === concept) net += effects[i]!;
  for (const [rule, lost] of after)
    if (hits.some((h) => h.rule === rule && h.concept === concept)) net += lost;
  return net;
}

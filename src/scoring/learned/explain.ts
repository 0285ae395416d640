import type { MediaKind } from '../../domain/enums.ts';
import { CONCEPTS, type Concept } from '../concepts.ts';
import type { GradeTerm } from '../judge/heuristic-judge.ts';
import type { JudgedDimension } from '../judge/judge.ts';
import type { GenericHit } from '../rules/generic-text.ts';
import { actSentence, type RuleHit } from '../rules/rule-kit.ts';
import { QUALITY_RULES } from '../rules/rules-quality.ts';
import { formatAct } from '../rules/rules-reach.ts';
import type { Signal, Span } from '../types.ts';
import { FEATURES, sideOf, type WordWeights } from './features.ts';
import type { Side } from './measures/row.ts';
import { points, weightOf } from './points-text.ts';
import { asWritten, LowerForWords } from './quote-words.ts';
import { type SpanContext, spansOf, wordSpans } from './signal-spans.ts';
import { materialWords } from './words.ts';

/**
 * One signal per concept (concepts.ts). A concept's impact and weight are the net effect on
 * `overall` of all its features for this post (the learned effects of its rules and measures,
 * and any stated penalty or cap after the model); its sentence is its dominant feature's: the
 * one pulling hardest the way the net goes, a fired rule's own wording (with its evidence and
 * what to do) or a measure's side ("The post has more links than a typical post; ..."). A rule
 * whose claim is a stated penalty (over the limit, a link, 6+ hashtags, bait, repeated text)
 * speaks for its concept whenever it fires. So a writer reads each concept once, and never two
 * opposite things about it.
 */

const MIN_EFFECT = 0.5;

const CONCEPT_INDEX = new Map<Concept, number>(CONCEPTS.map((c, i) => [c, i]));
const CONCEPT_OF_FEATURE = Int8Array.from(FEATURES, (f) => CONCEPT_INDEX.get(f.concept)!);
const BY_NAME = new Map(FEATURES.map((f, i) => [f.name, i]));
const NET = new Float64Array(CONCEPTS.length);

/**
 * Rules whose claim is a stated penalty or platform limit: when one fires it is what its
 * concept says, negative, whatever the other features of the concept add (CONTRACT.md caps,
 * SCORING.md demotions, the text-quality penalties of rules-quality.ts).
 */
const STATED: ReadonlySet<string> = new Set([
  'length.over_limit',
  'link.external',
  'hashtags.excess',
  'engagement.bait',
  // Every penalty after the model: text quality and generic text.
  ...QUALITY_RULES,
]);

/** How a format is named among posts ("video posts did better than..."). */
const FORMAT_GROUPS: Record<MediaKind, string> = {
  none: 'text-only posts',
  'single-image': 'posts with one image',
  'multi-image': 'posts with several images',
  document: 'document posts',
  video: 'video posts',
  poll: 'polls',
  link: 'posts with a link card',
};

export interface ExplainInput {
  hits: readonly RuleHit[];
  x: Float64Array;
  effects: Float64Array;
  means: readonly number[];
  /** The post's distinct words the model has an effect for (words.ts `wordPass`). */
  known: readonly number[];
  words: WordWeights;
  /** The post's format (an omitted `media` is text only). */
  media: MediaKind;
  /** Formats whose effect the training data measured (others take the published figure). */
  measuredFormats: ReadonlySet<string>;
  /** Who graded the judged dimensions: the offline heuristic or a language model. */
  judge: 'heuristic' | 'model';
  /** With the heuristic judge: what moved a dimension's grade (judge/heuristic-judge.ts gradeTerms). */
  gradeTerms?: (dimension: JudgedDimension) => readonly GradeTerm[];
  /** The post as written, so a quoted word keeps the author's spelling. */
  text: string;
  /** `text.toLowerCase()` when the caller has it (the rules' features of the same text). */
  lower?: string;
  /**
   * With `lower`: its runs of letters and digits (TextFeatures.runs), offsets `runsShift` units
   * before `lower`'s (the white space `text` has before the rules' text).
   */
  runs?: readonly number[];
  runsShift?: number;
  /** Points each rule's penalty or cap took after the model (negative), by rule name. */
  after: ReadonlyMap<string, number>;
  /** Where the signals' spans are found. */
  spans: SpanContext;
  /** The model's scale (points per unit of prediction), to size a word's own effect. */
  scale: number;
  /** The word-choice feature's weight, likewise. */
  wordChoiceWeight: number;
  /** What the platform's limit leaves for advice that lengthens the post (`roomFor`). */
  room?: Room;
}

/** The platform's limit against the post, counted the platform's way (rules/rubrics.ts). */
export interface Room {
  /** Characters the post may still gain. */
  left: number;
  limit: number;
  platform: string;
  /** The platform publishes threads, so what does not fit can be a second part. */
  threads: boolean;
}

/** Under this share of the limit left, "add a sentence" cannot be taken in the post itself. */
const ROOM_TO_GROW = 0.2;

/**
 * What to do on a side whose change lengthens the post, where the limit leaves too little room
 * for it: on a platform with threads, a second part; elsewhere nothing (null), since no edit
 * of the post can follow it. A 270-character post was told "add a sentence on what it showed
 * and one on what you would do next" under a 280-character limit.
 */
function roomFor(room: Room | undefined, side: Side, net: number): string | null | undefined {
  if (net > 0 || !side.grows || room === undefined || room.left >= ROOM_TO_GROW * room.limit)
    return undefined;
  if (!room.threads) return null;
  const left = Math.max(0, room.left);
  return `put the rest in a second part of the thread, since ${room.platform}'s ${room.limit.toLocaleString('en-US')}-character limit leaves ${left} ${left === 1 ? 'character' : 'characters'}`;
}

function formatDetail(input: ExplainInput, note: string | undefined, effect: number): string {
  const lead = note ? `${note.replace(/\s+$/, '')} ` : '';
  // What to do, by the measured effect: the same act the format rule says by its figure.
  const act = ` ${actSentence(formatAct(input.media, effect))}`;
  if (!input.measuredFormats.has(input.media))
    return `${lead}The real posts the score learned from hold too few ${FORMAT_GROUPS[input.media]} to measure, so the score takes the published figure (${points(effect)}).${act}`;
  return `${lead}Among the same authors' posts, ${FORMAT_GROUPS[input.media]} did ${effect >= 0 ? 'better' : 'worse'} than their posts with text only (${points(effect)}).${act}`;
}

/** A candidate to speak for a concept: a fired rule or a feature, with its effect. */
interface Candidate {
  index: number;
  hit?: RuleHit;
  effect: number;
}

function measureDetail(
  input: ExplainInput,
  index: number,
  net: number,
  roomTold: { told: boolean },
): { label: string; detail: string } | null {
  const spec = FEATURES[index]!;
  const value = input.x[index]!;
  const mean = input.means[index]!;
  if (spec.kind === 'judge') {
    const judged = spec.judged!;
    const grade = Math.round(100 * value);
    const typical = Math.round(100 * mean);
    const act = net > 0 ? judged.keep : judged.raise;
    if (input.judge === 'heuristic')
      return {
        label: `${spec.label} (heuristic grade)`,
        detail: `${rated(judged.noun, grade, typical, net)}; ${judged.hint}; ${act}.`,
      };
    return {
      label: `${spec.label} (language model's grade)`,
      detail: `The language model rates the ${judged.noun} at ${grade}/100; a typical post gets ${typical}, and the rating counts ${points(net)}; ${act}.`,
    };
  }
  if (spec.kind === 'media') return { label: spec.label, detail: formatDetail(input, undefined, net) };
  const side = sideOf(spec, value, mean);
  if (!side) return null;
  const room = roomFor(input.room, side, net);
  if (room === null) return null;
  if (room !== undefined) {
    // "the limit leaves 10 characters" said once, by the first concept to need it.
    if (roomTold.told) return null;
    roomTold.told = true;
  }
  return {
    label: spec.label,
    detail: sideSentence(room === undefined ? side : { ...side, change: room }, net),
  };
}

/** "rates the voice at 55/100, where a typical post gets 67 (-1.8 points)", with what moved it before the comparison. */
const rated = (noun: string, grade: number, typical: number, net: number, why = '') =>
  `A heuristic formula, not a reader, rates the ${noun} at ${grade}/100${why}, where a typical post gets ${typical} (${points(net)})`;

/**
 * A heuristic grade's signal, told by what in the post moved the grade the way its effect goes
 * (judge/heuristic-judge.ts gradeTerms), biggest first, three at most. A thing another concept
 * speaks about is named only where that concept shows no problem; where only such things lowered
 * the grade, that concept's signal says so and this one is not shown (one concept, one say).
 * Below the typical grade with nothing lowering it, what the post lacks is the reason.
 */
function heuristicGradeSignal(
  input: ExplainInput,
  terms: readonly GradeTerm[],
  index: number,
  net: number,
  spoken: ReadonlySet<Concept>,
): Signal | null {
  const spec = FEATURES[index]!;
  const judged = spec.judged!;
  const grade = Math.round(100 * input.x[index]!);
  const typical = Math.round(100 * input.means[index]!);
  const lifts = net > 0;
  const act = lifts ? judged.keep : judged.raise;
  const way = terms.filter((t) => t.points > 0 === lifts);
  const named = way
    .filter((t) => t.owner === undefined || !spoken.has(t.owner))
    .sort((a, b) => Math.abs(b.points) - Math.abs(a.points))
    .slice(0, 3);
  if (named.length === 0 && way.length > 0) return null;
  const signal = (detail: string, spans: Span[]): Signal => ({
    dimension: spec.dimension,
    concept: spec.concept,
    impact: lifts ? 'positive' : 'negative',
    weight: weightOf(net),
    label: `${spec.label} (heuristic grade)`,
    detail,
    rule: spec.name,
    spans,
  });
  if (named.length > 0)
    return signal(
      `${rated(judged.noun, grade, typical, net, ` for ${listed(named.map((t) => t.says))}`)}; ${act}.`,
      sortedSpans(named.flatMap((t) => t.spans.flatMap((name) => spansOf(name, input.spans)))),
    );
  const said = rated(judged.noun, grade, typical, net);
  if (!lifts) return signal(`${said}: ${judged.missing}; ${act}.`, spansOf(spec.name, input.spans));
  return signal(`${said}; ${judged.hint}; ${act}.`, spansOf(spec.name, input.spans));
}

const listed = (items: readonly string[]) =>
  items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** Spans in reading order, each once (two terms may mark the same words). */
function sortedSpans(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || a.end - b.end);
  return spans.filter((s, i) => i === 0 || s.start !== spans[i - 1]!.start || s.end !== spans[i - 1]!.end);
}

/**
 * A measure's sentence: the post's side, the evidence, and what to do, which follows the net:
 * keep this side where it went with more engagement, else change it.
 */
export const sideSentence = (side: Side, net: number): string =>
  `${side.post}; among the same authors' posts, ${side.group} went with ${net > 0 ? 'more' : 'less'} engagement (${points(net)}); ${net > 0 ? side.keep : side.change}.`;

/** A word's own effect must reach this many points to be named; together the words named must reach MIN_EFFECT. */
const WORD_MIN_POINTS = 0.15;

/**
 * The word-choice signal: only content words the writer chose (no function words), each with
 * an effect of its own that matters, in the direction of the net; none when they do not add up
 * to half a point (the score still counts the rest).
 */
function wordChoiceSignal(input: ExplainInput, index: number, net: number): Signal | null {
  const spec = FEATURES[index]!;
  const perPoint = input.scale * input.wordChoiceWeight;
  if (!(perPoint > 0)) return null;
  const chosen = materialWords(input.words, input.known, net > 0, 3, WORD_MIN_POINTS / perPoint);
  const total = chosen.reduce((s, w) => s + Math.abs(w.weight) * perPoint, 0);
  if (chosen.length === 0 || total < MIN_EFFECT) return null;
  const lower = new LowerForWords(input.text, input.lower);
  const runs = input.lower === undefined ? undefined : input.runs;
  const mine = chosen.map(({ word }) => asWritten(word, input.text, lower.for(word), runs, input.runsShift));
  const quoted = mine.map((w) => `"${w}"`);
  const list = listed(quoted);
  const them = quoted.length === 1 ? 'it' : 'them';
  const what =
    net > 0
      ? `keep ${them}.`
      : `where ${them === 'it' ? 'it is' : 'they are'} only filler, say what you mean in your own words.`;
  return {
    dimension: spec.dimension,
    concept: spec.concept,
    impact: net > 0 ? 'positive' : 'negative',
    weight: weightOf(net),
    label: spec.label,
    detail: `In the same authors' other posts, ${list} went with ${net > 0 ? 'more' : 'less'} engagement (${points(net)}); ${what}`,
    rule: spec.name,
    spans: wordSpans(mine, input.spans),
  };
}

/** A rule that found its own spans (generic text) keeps them; the others' are found now. */
const spansOfHit = (hit: RuleHit, c: SpanContext) =>
  hit.spans.length > 0 ? hit.spans : spansOf(hit.rule, c);

function ruleDetail(input: ExplainInput, c: Candidate): string {
  const hit = c.hit!;
  if (hit.rule === 'format.multiplier') return formatDetail(input, `${hit.said.finding}.`, c.effect);
  return hit.detail;
}

/**
 * The signals of a post: at most one per concept, the concepts whose net effect reaches half a
 * point or whose stated rule fired. Order: the concepts' order; the scorer ranks them.
 */
export function explain(input: ExplainInput): Signal[] {
  const { hits, effects } = input;
  const net = NET.fill(0);
  for (let i = 0; i < FEATURES.length; i++) {
    // Only the post's own format counts: the other formats' features are 0 at a mean of 0.
    net[CONCEPT_OF_FEATURE[i]!] = net[CONCEPT_OF_FEATURE[i]!]! + effects[i]!;
  }
  for (const [rule, lost] of input.after) {
    const hit = hits.find((h) => h.rule === rule);
    if (hit) net[CONCEPT_INDEX.get(hit.concept)!] = net[CONCEPT_INDEX.get(hit.concept)!]! + lost;
  }
  const mediaIndex = BY_NAME.get(`media.${input.media}`)!;
  // Each concept's candidates: the stated rule that fired, else the fired rule and the measure
  // pulling hardest the way the net goes (a rule only when its own claim points that way).
  const stated: (Candidate | undefined)[] = new Array(CONCEPTS.length);
  const bestRule: (Candidate | undefined)[] = new Array(CONCEPTS.length);
  const bestMeasure: (Candidate | undefined)[] = new Array(CONCEPTS.length);
  const pulls = (concept: number, effect: number) => effect !== 0 && effect > 0 === net[concept]! > 0;
  // Per concept, the fired rule with the most points, for a concept the model is neutral on.
  const quietRule: (RuleHit | undefined)[] = new Array(CONCEPTS.length);
  for (const h of hits) {
    const concept = CONCEPT_INDEX.get(h.concept)!;
    const index = BY_NAME.get(h.rule) ?? -1;
    const q = quietRule[concept];
    if (q === undefined || Math.abs(h.points) > Math.abs(q.points)) quietRule[concept] = h;
    const effect =
      h.rule === 'format.multiplier'
        ? effects[mediaIndex]!
        : (index === -1 ? 0 : effects[index]!) + (input.after.get(h.rule) ?? 0);
    const c: Candidate = { index, hit: h, effect };
    if (STATED.has(h.rule) && h.points < 0) {
      // The stated rule that takes the most speaks (generic text's penalty over the bait rule's).
      const s = stated[concept];
      if (s === undefined || Math.abs(effect) > Math.abs(s.effect)) stated[concept] = c;
      continue;
    }
    // "Too short" never speaks for a length that helps, nor "Sweet spot" for one that hurts.
    const claims = h.rule === 'format.multiplier' ? effect > 0 : h.points > 0;
    if (!pulls(concept, effect) || claims !== effect > 0) continue;
    const b = bestRule[concept];
    if (b === undefined || Math.abs(effect) > Math.abs(b.effect)) bestRule[concept] = c;
  }
  for (let i = 0; i < FEATURES.length; i++) {
    const spec = FEATURES[i]!;
    if (spec.kind === 'rule' || Math.abs(effects[i]!) < MIN_EFFECT) continue;
    if (spec.kind === 'media' && (i !== mediaIndex || input.media === 'none')) continue;
    const concept = CONCEPT_OF_FEATURE[i]!;
    if (!pulls(concept, effects[i]!)) continue;
    const b = bestMeasure[concept];
    if (b === undefined || Math.abs(effects[i]!) > Math.abs(b.effect))
      bestMeasure[concept] = { index: i, effect: effects[i]! };
  }
  // A fired rule says what to do; it speaks unless a measure pulls more than twice as hard.
  const best = (k: number) => {
    const r = bestRule[k];
    const m = bestMeasure[k];
    if (r === undefined) return m;
    if (m === undefined) return r;
    return Math.abs(m.effect) > 2 * Math.abs(r.effect) ? m : r;
  };
  const out: Signal[] = [];
  /** The rule behind each stated signal, for what its finding condemns (CONDEMNS). */
  const statedHits = new Map<Signal, RuleHit>();
  const deferred: { at: number; index: number; net: number }[] = [];
  /** The limit's room is told once: the first concept that would lengthen the post says it. */
  const roomTold = { told: false };
  for (let k = 0; k < CONCEPTS.length; k++) {
    const n = net[k]!;
    const s = stated[k];
    if (s !== undefined) {
      const hit = s.hit!;
      const signal: Signal = {
        dimension: hit.dimension,
        concept: hit.concept,
        impact: 'negative',
        weight: Math.max(hit.weight, n < 0 ? weightOf(n) : 1),
        label: hit.label,
        detail: ruleDetail(input, s),
        rule: hit.rule,
        spans: spansOfHit(hit, input.spans),
      };
      out.push(signal);
      statedHits.set(signal, hit);
      continue;
    }
    const c = best(k);
    if (c === undefined || Math.abs(n) < MIN_EFFECT) {
      // The model is neutral on this concept: a rule that fired still says what it found
      // (SCORING.md: every rule that fires is a signal), at the least weight, in its own direction.
      const quiet = Math.abs(n) < MIN_EFFECT ? quietRule[k] : undefined;
      if (quiet === undefined) continue;
      out.push({
        dimension: quiet.dimension,
        concept: quiet.concept,
        impact: quiet.impact,
        weight: 1,
        label: quiet.label,
        detail:
          quiet.rule === 'format.multiplier'
            ? formatDetail(input, `${quiet.said.finding}.`, effects[mediaIndex]!)
            : quiet.detail,
        rule: quiet.rule,
        spans: spansOfHit(quiet, input.spans),
      });
      continue;
    }
    const impact = n > 0 ? 'positive' : 'negative';
    if (c.hit) {
      out.push({
        dimension: c.hit.dimension,
        concept: c.hit.concept,
        impact,
        weight: weightOf(n),
        label: c.hit.label,
        detail: ruleDetail(input, c),
        rule: c.hit.rule,
        spans: spansOfHit(c.hit, input.spans),
      });
      continue;
    }
    const spec = FEATURES[c.index]!;
    if (spec.name === 'text.word_choice') {
      const signal = wordChoiceSignal(input, c.index, n);
      if (signal) out.push(signal);
      continue;
    }
    if (spec.kind === 'judge' && input.gradeTerms !== undefined) {
      // Told once every other concept has spoken: what it names depends on who did.
      deferred.push({ at: out.length, index: c.index, net: n });
      continue;
    }
    const worded = measureDetail(input, c.index, n, roomTold);
    if (!worded) continue;
    out.push({
      dimension: spec.dimension,
      concept: spec.concept,
      impact,
      weight: weightOf(n),
      label: worded.label,
      detail: worded.detail,
      rule: spec.name,
      spans: spansOf(spec.name, input.spans),
    });
  }
  if (deferred.length > 0) {
    const spoken = new Set(out.filter((s) => s.impact === 'negative').map((s) => s.concept));
    for (let i = deferred.length - 1; i >= 0; i--) {
      const d = deferred[i]!;
      const terms = input.gradeTerms!(FEATURES[d.index]!.judged!.dimension);
      const signal = heuristicGradeSignal(input, terms, d.index, d.net, spoken);
      if (signal) out.splice(d.at, 0, signal);
    }
  }
  return praisedOnce(withoutSaidTwice(withoutCondemnedPraise(out, statedHits)));
}

/** Two spans share a character. */
const overlap = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

/** Generic-text rules that condemn what the post gives readers to answer: bait, and stock lines. */
const CONDEMN_REPLIES = new Set(['generic.text', 'engagement.bait']);

/**
 * What copying inflates: every count read from the body (its length, lines, paragraphs,
 * sentences, numbers, names, questions, tags, hashtags, words) grows with each copy, and a share
 * (the first person, a story's moment) is the copied sentence's. Not the opening, read before
 * any copy, nor what is not read from the words (format, timing).
 */
const COPIED: readonly Concept[] = [
  'length',
  'layout',
  'sentences',
  'specifics',
  'voice',
  'story',
  'questions',
  'tags',
  'hashtags',
  'links',
  'word_choice',
];

/**
 * The concepts whose praise a negative signal of a concept condemns (beside the words its spans
 * mark, which no signal praises either). Generic text: the voice (a post told it reads as
 * anyone's is not told to "keep your own voice"), and beside bait or stock lines the pull to
 * reply ("keep what readers can answer" beside "Comment 'YES'"). Repeated text: what copying
 * inflates ("keep the sentences" beside "say each thing once").
 */
const CONDEMNS: Partial<Record<Concept, (s: Signal, hit: RuleHit | undefined) => readonly Concept[]>> = {
  generic: (s, hit) => [
    'voice',
    ...(CONDEMN_REPLIES.has(s.rule ?? '') ? (['questions'] as const) : []),
    // A platitude stack's one-line paragraphs are the formula: "Readable rhythm: keep that
    // rhythm" beside "stock lines that any post could hold" praises the stack itself.
    ...((hit as GenericHit | undefined)?.platitudes ? (['layout'] as const) : []),
  ],
  repetition: () => COPIED,
};

/**
 * No praise for what a negative signal condemns: not for the words it marks ("Personal story"
 * pointing at "thrilled to share" beside "Generic text: the stock line 'thrilled to share'"
 * says two opposite things), nor for the concepts its finding makes hollow (CONDEMNS). The score
 * still counts them; only the praise is not said (267 such praises beside generic text on real
 * posts, rules-15; "Number of sentences: keep the sentences" beside a sentence written 80 times).
 */
function withoutCondemnedPraise(signals: Signal[], hits: ReadonlyMap<Signal, RuleHit>): Signal[] {
  const concepts = new Set<Concept>();
  const marks: Span[] = [];
  for (const s of signals) {
    const condemned = s.impact === 'negative' ? CONDEMNS[s.concept] : undefined;
    if (condemned === undefined) continue;
    for (const c of condemned(s, hits.get(s))) concepts.add(c);
    marks.push(...s.spans);
  }
  if (concepts.size === 0) return signals;
  const marked = (a: Span) => marks.some((b) => overlap(a, b));
  return signals.filter((s) => s.impact === 'negative' || !(concepts.has(s.concept) || s.spans.some(marked)));
}

/**
 * Rules whose finding another concept's negative signal already makes about the same words, by
 * that concept: "Generic opener: the first line spends the hook on a stock phrase" beside
 * "Generic text: 'In today's fast-paced' ... is a stock line" names one phrase twice.
 */
const SAID_BY: Readonly<Record<string, Concept>> = { 'hook.generic_opener': 'generic' };

/** Each finding once: a rule's signal goes where SAID_BY's concept marks words inside its spans. */
function withoutSaidTwice(signals: Signal[]): Signal[] {
  const overlaps = (a: readonly Span[], b: readonly Span[]) => a.some((x) => b.some((y) => overlap(x, y)));
  return signals.filter((s) => {
    const by = SAID_BY[s.rule ?? ''];
    if (by === undefined) return true;
    return !signals.some(
      (o) => o !== s && o.concept === by && o.impact === 'negative' && overlaps(o.spans, s.spans),
    );
  });
}

/**
 * Praise of the same words once: "Story hook: the post opens on a story: '...'" and "Personal
 * story: a moment from your own life ..." point at the one opening sentence and say the one
 * thing. Where two positive signals mark exactly the same words, the heavier speaks (the
 * first, in concept order, on a tie); the score still counts both.
 */
function praisedOnce(signals: Signal[]): Signal[] {
  const key = (s: Signal) => s.spans.map((x) => `${x.start}-${x.end}`).join(',');
  const speaker = new Map<string, Signal>();
  for (const s of signals) {
    if (s.impact !== 'positive' || s.spans.length === 0) continue;
    const k = key(s);
    const held = speaker.get(k);
    if (held === undefined || s.weight > held.weight) speaker.set(k, s);
  }
  return signals.filter((s) => s.impact !== 'positive' || s.spans.length === 0 || speaker.get(key(s)) === s);
}

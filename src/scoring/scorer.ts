import { overflowIndex } from '../../packages/client/src/text-length.ts';
import { type Dimension, SCORE_SCHEMA_VERSION } from '../domain/enums.ts';
import { labelInSentence } from '../lib/label-in-sentence.ts';
import type { Concept } from './concepts.ts';
import { gradeHeuristically, gradeTerms } from './judge/heuristic-judge.ts';
import type { Judge, JudgedDimension, JudgeGrades } from './judge/judge.ts';
import { keptNotes, netOfConcept } from './judge/note-rules.ts';
import { explain } from './learned/explain.ts';
import { FEATURES, featureVector } from './learned/features.ts';
import { applyModel, measuredFormats, type ScoreModel, scoreModel, wordWeights } from './learned/model.ts';
import { type SpanContext, spansOf } from './learned/signal-spans.ts';
import { clamp } from './rules/rule-kit.ts';
import { type RuleOutcome, runRules } from './rules/rules.ts';
import { QUALITY_RULES } from './rules/rules-quality.ts';
import { PostSpans } from './text/spans.ts';
import type { Breakdown, ScoreInput, ScoreResult, Signal, Span } from './types.ts';

/**
 * One ScoreResult (score.v2): the deterministic rules and a judge (the offline heuristic or
 * a language model) produce the features; the learned model (learned/model.ts) turns them
 * into six dimension scores; caps apply last (caps win, whoever grades); `overall` is the
 * weighted sum with the learned weights /v1/meta publishes. No judge ever sets it.
 */

const MAX_SIGNALS = 12;

/**
 * Version of the rules, thresholds, lexicons, signal wording and the offline writers' output:
 * a change to any of them must bump it, so cached scores, rewrites and generations expire
 * (account/metered.ts keys them by it). A change to points or thresholds also means retraining
 * the learned model, since rule points are its features. rules-2: wording, and the offline
 * rewrite's cut and generate's openings; no points changed. rules-3: text-quality rules
 * (repetition, word order), omitted media scored as text only, plain-English signals. rules-5:
 * the rewrite runs a short opening line on and fits its closing question to the post; generate
 * tells news instead of arguing it. rules-6: both writers read news one way (a "My first ..."
 * post is a story and gets the rewrite's question; a thank-you anywhere gets none); generate and
 * plans say "the Q3 hiring push", and generate names a theme whose article is undecided after a
 * colon. rules-7: the generic-text rule (rules/generic-text.ts), a stated penalty after the model.
 * rules-8: its sentence reads as sentences. rules-9: one signal per concept with spans (issue
 * 32), claims checked against the text (numbers, names, story, contrarian), the over-limit rule
 * counted the platform's way, the length wording. rules-10: the hook archetype is the claim
 * checks' (a story tells the writer's event, a contrarian opening a view it is against), with
 * re-measured notes and points. rules-11: a closing question's span is the question, not the
 * hashtags after it. rules-12: word order speaks only where shuffled words stand, not on
 * headlines and lists of names. rules-13: generic text reads the announcement frame in its
 * common words, a list's heading count as a count, and a chant of lines as a platitude stack.
 * rules-14: word choice never names a preposition ("across", "like"). rules-15: "nobody" or "no one"
 * alone makes no contrarian opening; a group ping ("@everyone", "@here") tags no one. rules-16: no
 * praise of the voice, or beside bait and stock lines of the pull to reply, where generic text fires.
 * rules-17: a common word capitalised for a heading or emphasis ("Key Takeaways", "Be Honest:")
 * is no name (text/common-words.json). rules-18: lengths told to a writer, and the bands and
 * thresholds they state, count characters as a person does (text/person-length.ts). rules-19: a list's item numbers
 * ("1.", "2)") are not numbers a reader can check (text/numbers.ts). rules-20: beside repeated
 * text no praise of what the copies inflate; the repetition signal names copied sentences by
 * their share whenever they reach the threshold, counts an opening copied with no sentence end,
 * and marks the copies. rules-21: whether the first line stands alone is said with the other
 * line breaks (layout), never against them. rules-22: the same words praised once, a stock opening
 * named once (by generic text), and no praise of a platitude stack's layout. rules-23: the
 * over-limit sentence counts the text as sent (ScoreInput.sentLength), the number the editor
 * shows; the dense paragraph, the white space and the opening's layout and length count
 * characters as a person does; the hook, format and personal notes say "the typical post" and
 * "the general score", not "the calibration median" or "the model". rules-24: no advice to
 * lengthen a post the platform's limit has no room for (a thread part where there are threads).
 */
export const RULES_VERSION = 'rules-24';

/**
 * What a cached score depends on besides its input and engine: the score schema, the learned
 * model's version (a hash of its weights) and the rules version. Part of every cache key
 * (features/intelligence/metered.ts `cacheKey`), so retraining expires cached results.
 */
export function scoreCacheVersion(model: ScoreModel = scoreModel()): string {
  return `${SCORE_SCHEMA_VERSION}:${model.version}:${RULES_VERSION}`;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export function overallOf(breakdown: Breakdown, model: ScoreModel = scoreModel()): number {
  let sum = 0;
  for (const d of Object.keys(model.dimensionWeights) as Dimension[])
    sum += model.dimensionWeights[d] * breakdown[d];
  return round1(clamp(sum));
}

function verdictOf(overall: number, signals: Signal[]): string {
  const band =
    overall >= 80 ? 'Strong post' : overall >= 65 ? 'Good post' : overall >= 50 ? 'Fair post' : 'Weak post';
  const lead = `${band} (${Math.round(overall)}/100)`;
  const strength = signals.find((s) => s.impact === 'positive');
  const fix = signals.find((s) => s.impact === 'negative');
  if (fix && strength)
    return `${lead}: ${labelInSentence(strength.label)} helps; fix first: ${labelInSentence(fix.label)}.`;
  if (fix) return `${lead}; fix first: ${labelInSentence(fix.label)}.`;
  if (strength) return `${lead}: ${labelInSentence(strength.label)} carries it.`;
  return `${lead}.`;
}

/**
 * Ranked: heavier first, problems before strengths at equal weight, rules before judge notes.
 * Every rule that fired is kept (SCORING.md); model features and judge notes fill the list
 * up to MAX_SIGNALS, heaviest first.
 */
export function rank(fired: Signal[], others: Signal[]): Signal[] {
  // Signals that compare equal keep their order in the list (a stable sort: no index to carry,
  // wrapping each signal with its index cost about 2% of the scorer's time).
  const kept = sortStable([...others]);
  kept.length = Math.min(kept.length, Math.max(0, MAX_SIGNALS - fired.length));
  return sortStable([...fired, ...kept]);
}

/**
 * `list.sort(heavierFirst)`, by insertion: stable as `sort` is, so the same order for lists of a
 * few dozen signals, without `Array.prototype.sort`'s set-up and calls into the comparator from
 * the builtin (1.3% of the scorer's time in a CPU profile, 2026-11-29).
 */
function sortStable(list: Signal[]): Signal[] {
  for (let i = 1; i < list.length; i++) {
    const s = list[i]!;
    let j = i;
    while (j > 0 && heavierFirst(list[j - 1]!, s) > 0) {
      list[j] = list[j - 1]!;
      j--;
    }
    list[j] = s;
  }
  return list;
}

const heavierFirst = (a: Signal, b: Signal) =>
  b.weight - a.weight ||
  (a.impact === b.impact ? 0 : a.impact === 'negative' ? -1 : 1) ||
  (a.rule ? 0 : 1) - (b.rule ? 0 : 1);

const LENGTH_FEATURES = FEATURES.flatMap((f, i) => (f.concept === 'length' ? [i] : []));
const WORD_CHOICE = FEATURES.findIndex((f) => f.name === 'text.word_choice');
const wordChoiceWeightOf = (model: ScoreModel) => model.features[WORD_CHOICE]!.weight;

/** The length concept's gains taken back (effects and their dimensions), for a post over the limit. */
function dropLengthGains(effects: Float64Array, breakdown: Breakdown, model: ScoreModel): void {
  for (const i of LENGTH_FEATURES) {
    const e = effects[i]!;
    if (e <= 0) continue;
    const d = model.features[i]!.dimension;
    breakdown[d] = clamp(breakdown[d] - e / model.dimensionWeights[d]);
    effects[i] = 0;
  }
}

const means = new WeakMap<ScoreModel, number[]>();
function meansOf(model: ScoreModel): number[] {
  let m = means.get(model);
  if (!m) {
    m = model.features.map((f) => f.mean);
    means.set(model, m);
  }
  return m;
}

/** A score with what it was computed from: the rules' outcome and the model's feature vector. */
export interface ScoredPost {
  result: ScoreResult;
  rules: RuleOutcome;
  /** The feature vector the model read (learned/features.ts `featureVector`), with the judge's grades. */
  x: Float64Array;
  /** Where a signal about a feature points in the post (the personal signals ask). */
  spansFor: (feature: string) => Span[];
}

/** Scores a post from its rule outcome and a judge's grades with a model (the committed one by default). */
export function scoreWith(
  input: ScoreInput,
  rules: RuleOutcome,
  grades: JudgeGrades,
  model: ScoreModel = scoreModel(),
): ScoreResult {
  return scoreAndKeep(input, rules, grades, model).result;
}

/** `scoreAndKeep`'s effects, reused (model.ts `applyModel`). */
const EFFECTS = new Float64Array(FEATURES.length);

function scoreAndKeep(
  input: ScoreInput,
  rules: RuleOutcome,
  grades: JudgeGrades,
  model: ScoreModel,
): ScoredPost {
  const words = wordWeights(model);
  const known: number[] = [];
  const x = featureVector(input, rules, grades, words, known);
  // The effects are read only by `explain` below: one array serves every post.
  const { effects, breakdown } = applyModel(x, model, EFFECTS);
  const overLimit = rules.hits.some((h) => h.rule === 'length.over_limit');
  // Length never helps past the limit: a post that cannot be published gains nothing from it.
  if (overLimit) dropLengthGains(effects, breakdown, model);
  // Points taken after the model, by rule: text-quality penalties and binding caps (explain nets them in).
  const after = new Map<string, number>();
  // Text that is not real writing loses its points on every dimension (rules-quality.ts).
  for (const h of rules.hits)
    if (QUALITY_RULES.has(h.rule)) {
      for (const d of Object.keys(breakdown) as Dimension[]) breakdown[d] = clamp(breakdown[d] + h.points);
      after.set(h.rule, (after.get(h.rule) ?? 0) + h.points);
    }
  for (const [d, cap] of Object.entries(rules.caps) as [Dimension, { max: number; rule: string }][]) {
    if (breakdown[d] <= cap.max) continue;
    // A cap that bound the score is the heaviest reason there is: it outranks every effect.
    after.set(cap.rule, (after.get(cap.rule) ?? 0) - (breakdown[d] - cap.max) * model.dimensionWeights[d]);
    breakdown[d] = cap.max;
  }
  const raw = input.post;
  const spanContext: SpanContext = {
    spans: new PostSpans(
      raw,
      rules.features.text,
      rules.features.lower,
      rules.features.runs,
      rules.features.sentenceRanges,
    ),
    f: rules.features,
    overflowAt: overLimit ? overflowIndex(rules.rubric.counting, raw, rules.rubric.maxLength) : raw.length,
  };
  const lower = lowerOfPost(raw, rules.features);
  const explained = explain({
    hits: rules.hits,
    x,
    effects,
    means: meansOf(model),
    known,
    words,
    media: input.media ?? 'none',
    measuredFormats: measuredFormats(model),
    judge: grades.by ?? 'model',
    ...(grades.by === 'heuristic' ? { gradeTerms: (d: JudgedDimension) => gradeTerms(rules, d) } : {}),
    text: raw,
    lower,
    runs: rules.features.runs,
    runsShift: lower === undefined || raw === rules.features.text ? 0 : raw.length - raw.trimStart().length,
    after,
    spans: spanContext,
    scale: model.scale,
    wordChoiceWeight: wordChoiceWeightOf(model),
    room: {
      left: rules.rubric.maxLength - rules.counted,
      limit: rules.rubric.maxLength,
      platform: rules.rubric.displayName,
      threads: rules.rubric.threads,
    },
  });
  for (const d of Object.keys(breakdown) as Dimension[]) breakdown[d] = Math.round(clamp(breakdown[d]));
  const firedRules = new Set<string>();
  for (const h of rules.hits) firedRules.add(h.rule);
  // The fired rules' signals, and the rest then the judge's notes (one per concept not yet spoken for).
  const fired: Signal[] = [];
  const others: Signal[] = [];
  const spoken = new Set<Concept>();
  for (const s of explained) {
    (firedRules.has(s.rule!) ? fired : others).push(s);
    spoken.add(s.concept);
  }
  // A judge's notes only where they obey the note rules: a concept not yet spoken for, the
  // score's direction, no internal names or epoch numbers (judge/note-rules.ts).
  if (grades.signals.length)
    others.push(...keptNotes(grades.signals, spoken, (c) => netOfConcept(c, effects, rules.hits, after)));
  const signals = rank(fired, others);
  const overall = overallOf(breakdown, model);
  const result: ScoreResult = {
    schema: SCORE_SCHEMA_VERSION,
    overall,
    breakdown,
    verdict: verdictOf(overall, signals),
    signals,
    hookArchetype: rules.archetype,
    hookArchetypeNote: rules.archetypeNote,
    formatMultiplier: rules.format.multiplier,
    formatNote: rules.format.note,
  };
  return { result, rules, x, spansFor: (feature) => spansOf(feature, spanContext) };
}

/**
 * `post.toLowerCase()` from the rules' lower-cased text when the post is that text with white
 * space around it (normalizePost trims; a fifth of the bench posts), else undefined. Lower-casing
 * adds nothing around: white space stays as it is and decides no final sigma. The word-choice
 * signal lower-cased such a post again (ICU, for most posts' non-ASCII characters).
 */
export function lowerOfPost(post: string, f: { text: string; lower: string }): string | undefined {
  if (f.text === post) return f.lower;
  const trimmed = post.trim();
  if (trimmed !== f.text) return undefined;
  const lead = post.length - post.trimStart().length;
  return post.slice(0, lead) + f.lower + post.slice(lead + trimmed.length);
}

/** The offline engine end to end, synchronously (eval, bench, rewrite and generate use it). */
export function scoreHeuristically(input: ScoreInput, model?: ScoreModel): ScoreResult {
  return scoreHeuristicallyKeeping(input, model).result;
}

/** `scoreHeuristically`, keeping the rules' outcome and the feature vector (as `scorePostKeeping`). */
export function scoreHeuristicallyKeeping(input: ScoreInput, model: ScoreModel = scoreModel()): ScoredPost {
  const rules = runRules(input);
  return scoreAndKeep(input, rules, gradeHeuristically(rules), model);
}

export async function scorePost(input: ScoreInput, judge: Judge, model?: ScoreModel): Promise<ScoreResult> {
  return (await scorePostKeeping(input, judge, model)).result;
}

/**
 * `scorePost`, keeping the rules' outcome and the feature vector, so a personal score reads the
 * post from them instead of running the rules and the features again (personal/features.ts).
 */
export async function scorePostKeeping(
  input: ScoreInput,
  judge: Judge,
  model: ScoreModel = scoreModel(),
): Promise<ScoredPost> {
  const rules = runRules(input);
  return scoreAndKeep(input, rules, await judge.grade(input, rules), model);
}

/**
 * The learned offline score of a candidate text in a request's context, for the rewrite's
 * guided passes: text-derived overrides (link, hashtag count) are re-derived from the text.
 */
export function offlineMeasure(input: ScoreInput): (post: string) => number {
  const { hasExternalLink: _link, hashtagCount: _tags, ...context } = input;
  return (post) => scoreHeuristically({ ...context, post }).overall;
}

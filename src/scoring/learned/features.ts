import type { Dimension, MediaKind } from '../../domain/enums.ts';
import { type Concept, conceptOfRule } from '../concepts.ts';
import type { JudgedDimension, JudgeGrades } from '../judge/judge.ts';
import { FORMAT_LABELS } from '../rules/format.ts';
import type { RuleOutcome } from '../rules/rules.ts';
import type { ScoreInput } from '../types.ts';
import { FORM_MEASURES } from './measures/form.ts';
import { JUDGED_ROWS, type JudgedRow } from './measures/judged.ts';
import { REACH_MEASURES } from './measures/reach.ts';
import { REPLY_MEASURES } from './measures/reply.ts';
import type { MeasureInput, MeasureRow, Side } from './measures/row.ts';
import { VOICE_MEASURES } from './measures/voice.ts';
import { type WordWeights, wordPass } from './words.ts';

export type { WordWeights } from './words.ts';

/**
 * The learned model's inputs: one number per named feature, in FEATURES order. Three kinds:
 * - `rule`: every named rule of the rules layer, valued by the points it moved (/10; 0 when
 *   it did not fire), so the model weighs each rule by what it does within an author's posts;
 * - `measure`: continuous text measures the thresholds miss, sentiment from VADER's lexicon
 *   (sentiment.ts), and word choice: the sum of the learned within-author effects of the
 *   words the post uses (a vocabulary fitted with the model, shipped in its artifact);
 * - `media`: the format; an omitted `media` is text only (`none`), as the API documents. Each
 *   kind's weight is its effect against a text-only post, estimated within author on the
 *   training posts that name their format and shrunk toward the published reach figure
 *   (scripts/train-scoring.ts), never fitted with the rest;
 * - `judge`: the judge's grades (0-1). Offline the heuristic judge grades; with a language
 *   model configured its grades fill the same slots, so the model weighs them, not replaces.
 * Names are stable: a signal's `rule` is the name of the feature that produced it.
 */

export type FeatureKind = 'rule' | 'measure' | 'media' | 'judge';

/** One feature, said once: its name, dimension and concept, and how a writer is told about it. */
export interface FeatureSpec {
  name: string;
  kind: FeatureKind;
  dimension: Dimension;
  concept: Concept;
  /** Signal label for measures, media and judge features (rules carry their own). */
  label: string;
  /** A measure's two sides (measures/row.ts); absent for the rest and for word choice. */
  sides?: [Side, Side];
  /** A judge feature's wording (measures/judged.ts). */
  judged?: JudgedRow;
}

/** Every rule the rules layer can fire, with its dimension (its concept is concepts.ts `RULE_CONCEPTS`). */
export const RULE_FEATURES: readonly [string, Dimension][] = [
  ['length.over_limit', 'algorithmFit'],
  ['length.thin', 'algorithmFit'],
  ['length.short', 'algorithmFit'],
  ['length.sweet_spot', 'algorithmFit'],
  ['length.long', 'algorithmFit'],
  ['link.external', 'algorithmFit'],
  ['hashtags.excess', 'algorithmFit'],
  ['format.multiplier', 'algorithmFit'],
  ['mentions.excess', 'algorithmFit'],
  ['mentions.tagged', 'algorithmFit'],
  ['engagement.bait', 'algorithmFit'],
  ['timing.midweek', 'algorithmFit'],
  ['timing.weekend', 'algorithmFit'],
  ['timing.peak_hour', 'algorithmFit'],
  ['timing.off_hours', 'algorithmFit'],
  ['hook.fold', 'hook'],
  ['hook.archetype', 'hook'],
  ['hook.generic_opener', 'hook'],
  ['structure.wall_of_text', 'structure'],
  ['structure.long_paragraph', 'structure'],
  ['structure.white_space', 'structure'],
  ['structure.sentence_band', 'structure'],
  ['structure.few_sentences', 'structure'],
  ['structure.long_sentences', 'structure'],
  ['structure.list', 'structure'],
  ['specificity.numbers', 'specificity'],
  ['specificity.names', 'specificity'],
  ['specificity.vague', 'specificity'],
  ['specificity.jargon', 'specificity'],
  ['voice.ai_tells', 'voice'],
  ['voice.em_dash_stack', 'voice'],
  ['voice.not_x_but_y', 'voice'],
  ['voice.first_person', 'voice'],
  ['voice.corporate_we', 'voice'],
  ['voice.lecturing', 'voice'],
  ['engagement.personal_story', 'engagement'],
  ['engagement.call_to_comment', 'engagement'],
  ['engagement.closing_question', 'engagement'],
  ['engagement.question_overload', 'engagement'],
];

/** The learned measures, in the model's order, each a row that says everything about it once. */
const MEASURES: readonly MeasureRow[] = [
  ...REACH_MEASURES,
  ...FORM_MEASURES,
  ...VOICE_MEASURES,
  ...REPLY_MEASURES,
];

/** Media kinds as features; `none` (text only) is the baseline every other kind is measured from. */
export const MEDIA_FEATURES: readonly MediaKind[] = [
  'none',
  'single-image',
  'multi-image',
  'document',
  'video',
  'poll',
  'link',
];

const JUDGED: readonly JudgedDimension[] = JUDGED_ROWS.map((r) => r.dimension);

export const FEATURES: readonly FeatureSpec[] = [
  ...RULE_FEATURES.map(([name, dimension]) => ({
    name,
    kind: 'rule' as const,
    dimension,
    concept: conceptOfRule(name),
    label: name,
  })),
  ...MEASURES.map(({ name, dimension, concept, label, sides }) => ({
    name,
    kind: 'measure' as const,
    dimension,
    concept,
    label,
    ...(sides ? { sides } : {}),
  })),
  ...MEDIA_FEATURES.map((m) => ({
    name: `media.${m}`,
    kind: 'media' as const,
    dimension: 'algorithmFit' as const,
    concept: 'format' as const,
    label: FORMAT_LABELS[m],
  })),
  ...JUDGED_ROWS.map((judged) => ({
    name: `judge.${judged.dimension}`,
    kind: 'judge' as const,
    dimension: judged.dimension,
    concept: judged.concept,
    label: judged.label,
    judged,
  })),
];

export const FEATURE_NAMES: readonly string[] = FEATURES.map((f) => f.name);
const INDEX = new Map(FEATURE_NAMES.map((n, i) => [n, i]));
const RULE_OFFSET = 0;
const MEASURE_OFFSET = RULE_FEATURES.length;
const MEDIA_OFFSET = MEASURE_OFFSET + MEASURES.length;
const JUDGE_OFFSET = MEDIA_OFFSET + MEDIA_FEATURES.length;

export const featureIndex = (name: string): number | undefined => INDEX.get(name);

/** Which side of a measure a post is on: more than the training mean (or yes) is side 0. */
export const sideOf = (spec: FeatureSpec, value: number, mean: number): Side | undefined =>
  spec.sides?.[value >= mean ? 0 : 1];

/**
 * The same post's feature vector with another judge's grades: only the judge slots depend on
 * the grades, so this equals `featureVector` with `grades` for the same input and rules.
 */
export function withJudgeGrades(x: Float64Array, grades: JudgeGrades): Float64Array {
  const out = Float64Array.from(x);
  for (let i = 0; i < JUDGED.length; i++) out[JUDGE_OFFSET + i] = grades.scores[JUDGED[i]!] / 100;
  return out;
}

/**
 * Vectors per chunk. A `Float64Array` over 64 bytes is allocated outside V8's heap, with its own
 * buffer: 1.6% of the scorer's time in a CPU profile (2026-11-29). `featureVector` hands out
 * views into a shared buffer instead (a view costs about a quarter in a micro-benchmark). The
 * views never overlap; a caller that keeps one vector keeps its chunk's 16 alive (10 kB).
 */
const CHUNK_VECTORS = 16;
let chunk = new ArrayBuffer(0);
let chunkUsed = CHUNK_VECTORS;

function newVector(): Float64Array {
  if (chunkUsed === CHUNK_VECTORS) {
    chunk = new ArrayBuffer(CHUNK_VECTORS * FEATURES.length * 8);
    chunkUsed = 0;
  }
  return new Float64Array(chunk, chunkUsed++ * FEATURES.length * 8, FEATURES.length);
}

/**
 * The feature vector of a scored post: the rules' outcome for it, and the judge's grades.
 * Pure and cheap (one more pass over the rules' tokens: words.ts); order and names are FEATURES.
 */
export function featureVector(
  input: ScoreInput,
  rules: RuleOutcome,
  grades: JudgeGrades,
  words: WordWeights,
  known?: number[],
): Float64Array {
  const x = newVector();
  for (const h of rules.hits) {
    const i = INDEX.get(h.rule);
    if (i !== undefined && i < MEASURE_OFFSET) x[RULE_OFFSET + i] = (x[RULE_OFFSET + i] ?? 0) + h.points / 10;
  }
  const f = rules.features;
  const per100 = (n: number) => (f.words === 0 ? 0 : (100 * n) / f.words);
  // The tokens' strings are cut only if the lookup is out of date (text-features.ts).
  const { choice, sentiment } = wordPass(f.tokens, words, known, f.wordFacts);
  const links =
    input.hasExternalLink === undefined ? f.links : input.hasExternalLink ? Math.max(1, f.links) : 0;
  const read: MeasureInput = {
    f,
    per100,
    logLength: Math.log1p(f.chars),
    choice,
    sentiment,
    hashtags: input.hashtagCount ?? f.hashtags,
    links,
  };
  let m = MEASURE_OFFSET;
  for (const row of MEASURES) x[m++] = row.value(read);
  if (m !== MEDIA_OFFSET) throw new Error('featureVector wrote a measure count other than MEASURES');
  const media = input.media ?? 'none';
  x[MEDIA_OFFSET + MEDIA_FEATURES.indexOf(media)] = 1;
  for (let i = 0; i < JUDGED.length; i++) x[JUDGE_OFFSET + i] = grades.scores[JUDGED[i]!] / 100;
  return x;
}

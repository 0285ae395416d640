import type { Dimension, MediaKind } from '../../domain/enums.ts';
import type { JudgedDimension, JudgeGrades } from '../judge/judge.ts';
import { FORMAT_LABELS } from '../rules/format.ts';
import type { RuleOutcome } from '../rules/rules.ts';
import type { ScoreInput } from '../types.ts';
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

export interface FeatureSpec {
  name: string;
  kind: FeatureKind;
  dimension: Dimension;
  /** Signal label for measures, media and judge features (rules carry their own). */
  label: string;
}

/** Every rule the rules layer can fire, with its dimension. */
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

type Measure = [name: string, dimension: Dimension, label: string];
const MEASURES: Measure[] = [
  ['text.length', 'algorithmFit', 'Post length'],
  ['text.length_squared', 'algorithmFit', 'Post length'],
  ['text.length_band_short', 'algorithmFit', 'Post length'],
  ['text.length_band_medium', 'algorithmFit', 'Post length'],
  ['text.length_band_long', 'algorithmFit', 'Post length'],
  ['text.length_band_very_long', 'algorithmFit', 'Post length'],
  ['text.hashtags', 'algorithmFit', 'Hashtags'],
  ['text.links', 'algorithmFit', 'Links'],
  ['text.hook_length', 'hook', 'Opening length'],
  ['text.hook_own_line', 'hook', 'Opening line layout'],
  ['text.hook_first_person', 'hook', 'How the post opens'],
  ['text.sentences', 'structure', 'Number of sentences'],
  ['text.paragraphs', 'structure', 'Number of paragraphs'],
  ['text.sentence_words', 'structure', 'Words per sentence'],
  ['text.line_breaks', 'structure', 'Line breaks'],
  ['text.list_lines', 'structure', 'List lines'],
  ['text.numbers', 'specificity', 'Numbers'],
  ['text.names', 'specificity', 'Names'],
  ['text.mentions', 'specificity', 'Tagged people'],
  ['text.first_person', 'voice', 'First person'],
  ['text.first_person_plural', 'voice', '"We" and "our"'],
  ['text.second_person', 'voice', '"You"'],
  ['text.exclamations', 'voice', 'Exclamations'],
  ['text.emoji', 'voice', 'Emoji'],
  ['nlp.sentiment', 'voice', 'Overall sentiment'],
  ['nlp.positive_words', 'voice', 'Positive words'],
  ['nlp.negative_words', 'voice', 'Negative words'],
  ['text.word_choice', 'engagement', 'Word choice'],
  ['text.questions', 'engagement', 'Questions'],
  ['text.ends_with_question', 'engagement', 'Closing line'],
  ['text.lines', 'structure', 'Number of lines'],
  ['text.inline_hashtags', 'algorithmFit', 'Hashtag placement'],
  ['text.styled_unicode', 'voice', 'Styled letters'],
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

const JUDGED: readonly JudgedDimension[] = ['hook', 'specificity', 'voice', 'engagement'];
const JUDGE_LABELS: Record<JudgedDimension, string> = {
  hook: 'Opening',
  specificity: 'Specificity',
  voice: 'Voice',
  engagement: 'Pull to respond',
};

export const FEATURES: readonly FeatureSpec[] = [
  ...RULE_FEATURES.map(([name, dimension]) => ({ name, kind: 'rule' as const, dimension, label: name })),
  ...MEASURES.map(([name, dimension, label]) => ({ name, kind: 'measure' as const, dimension, label })),
  ...MEDIA_FEATURES.map((m) => ({
    name: `media.${m}`,
    kind: 'media' as const,
    dimension: 'algorithmFit' as const,
    label: FORMAT_LABELS[m],
  })),
  ...JUDGED.map((d) => ({
    name: `judge.${d}`,
    kind: 'judge' as const,
    dimension: d,
    label: JUDGE_LABELS[d],
  })),
];

export const FEATURE_NAMES: readonly string[] = FEATURES.map((f) => f.name);
const INDEX = new Map(FEATURE_NAMES.map((n, i) => [n, i]));
const RULE_OFFSET = 0;
const MEASURE_OFFSET = RULE_FEATURES.length;
const MEDIA_OFFSET = MEASURE_OFFSET + MEASURES.length;
const JUDGE_OFFSET = MEDIA_OFFSET + MEDIA_FEATURES.length;

export const featureIndex = (name: string): number | undefined => INDEX.get(name);

const FIRST_PERSON_START = /^[^\p{L}]{0,3}(?:I|I['’](?:m|ve|d|ll)|My|We|Our)(?![\p{L}])/u;
const log1p = Math.log1p;

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
  const logLength = log1p(f.length);
  // Squared distance from ~1,000 characters (log scale): lets a linear model learn a band.
  const fromUsual = logLength - Math.log(1000);
  // The tokens' strings are cut only if the lookup is out of date (text-features.ts).
  const { choice, sentiment } = wordPass(f.tokens, words, known, f.wordFacts);
  // Written into the vector in MEASURES order, without a list of them per post.
  let m = MEASURE_OFFSET;
  x[m++] = logLength;
  x[m++] = fromUsual * fromUsual;
  x[m++] = f.length < 300 ? 1 : 0;
  x[m++] = f.length >= 300 && f.length < 700 ? 1 : 0;
  x[m++] = f.length >= 1300 && f.length < 2000 ? 1 : 0;
  x[m++] = f.length >= 2000 ? 1 : 0;
  x[m++] = log1p(rules.features.hashtags);
  x[m++] = Math.min(f.links, 3);
  x[m++] = log1p(f.hook.length);
  x[m++] = f.hasLineBreaks && f.firstLine.length < 160 ? 1 : 0;
  x[m++] = FIRST_PERSON_START.test(f.hook) ? 1 : 0;
  x[m++] = log1p(f.sentences);
  x[m++] = log1p(f.paragraphs);
  x[m++] = Math.min(f.avgSentenceWords, 60) / 10;
  x[m++] = f.hasLineBreaks ? 1 : 0;
  x[m++] = log1p(f.listLines);
  x[m++] = Math.min(per100(f.numbers), 20) / 5;
  x[m++] = Math.min(per100(f.properNouns), 30) / 5;
  x[m++] = log1p(f.mentions);
  x[m++] = Math.min(per100(f.firstPerson), 20) / 5;
  x[m++] = Math.min(per100(f.firstPersonPlural), 20) / 5;
  x[m++] = Math.min(per100(f.secondPerson), 20) / 5;
  x[m++] = log1p(f.exclamations);
  x[m++] = log1p(f.emoji);
  x[m++] = sentiment.compound;
  x[m++] = sentiment.positive * 10;
  x[m++] = sentiment.negative * 10;
  x[m++] = choice;
  x[m++] = log1p(f.questions);
  x[m++] = f.endsWithQuestion ? 1 : 0;
  x[m++] = log1p(f.lines);
  x[m++] = log1p(f.inlineHashtags);
  x[m++] = f.styledLetters > 0 ? 1 : 0;
  if (m !== MEDIA_OFFSET) throw new Error('featureVector wrote a measure count other than MEASURES');
  const media = input.media ?? 'none';
  x[MEDIA_OFFSET + MEDIA_FEATURES.indexOf(media)] = 1;
  for (let i = 0; i < JUDGED.length; i++) x[JUDGE_OFFSET + i] = grades.scores[JUDGED[i]!] / 100;
  return x;
}

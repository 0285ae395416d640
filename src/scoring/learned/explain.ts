import type { MediaKind } from '../../domain/enums.ts';
import type { RuleHit } from '../rules/rule-kit.ts';
import { QUALITY_RULES } from '../rules/rules-quality.ts';
import type { Signal } from '../types.ts';
import { FEATURES, type WordWeights } from './features.ts';
import { sideOf } from './plain-signals.ts';
import { points, weightOf } from './points-text.ts';
import { asWritten, LowerForWords } from './quote-words.ts';
import { strongestWords } from './words.ts';

/**
 * Signals from the learned contributions. Every fired rule is a signal (its `rule` name and
 * wording), but its impact and weight are the model's: the sign and size of the rule's effect
 * on `overall` for this post. Measures, the format and judge grades become signals when their
 * effect reaches half a point. Weight 1-5 follows the effect in overall points. Signals about
 * one concept (length, format, sentences...) never disagree: the concept's net effect decides
 * which side the model means, and only the signals on that side are shown; of the measures, only
 * the concept's largest is worded.
 */

const MIN_EFFECT = 0.5;

/** Features that speak about the same thing: their signals must agree. */
const CONCEPTS: [string, RegExp][] = [
  ['length', /^(?:length\.|text\.length)/],
  ['format', /^(?:format\.multiplier|media\.)/],
  ['sentences', /^(?:structure\.(?:sentence_band|few_sentences)|text\.sentences)$/],
  ['sentence length', /^(?:structure\.long_sentences|text\.sentence_words)$/],
  ['hashtags', /^(?:hashtags\.excess|text\.(?:inline_)?hashtags)$/],
  ['links', /^(?:link\.external|text\.links)$/],
  ['mentions', /^(?:mentions\.|text\.mentions$)/],
  [
    'questions',
    /^(?:engagement\.(?:closing_question|question_overload)|text\.(?:questions|ends_with_question))$/,
  ],
  ['opening length', /^(?:hook\.fold|text\.hook_length)$/],
  ['first person', /^(?:voice\.first_person|text\.first_person)$/],
  ['we', /^(?:voice\.corporate_we|text\.first_person_plural)$/],
  ['you', /^(?:voice\.lecturing|text\.second_person)$/],
  ['numbers', /^(?:specificity\.numbers|text\.numbers)$/],
  ['names', /^(?:specificity\.names|text\.names)$/],
  [
    'layout',
    /^(?:structure\.(?:wall_of_text|long_paragraph|white_space)|text\.(?:paragraphs|line_breaks|lines))$/,
  ],
  ['lists', /^(?:structure\.list|text\.list_lines)$/],
  ['sentiment', /^nlp\./],
];
/** Each feature's concept as an index into CONCEPTS, -1 for none: sums by index, not by name. */
const CONCEPT_OF_FEATURE = Int8Array.from(FEATURES, (f) => CONCEPTS.findIndex(([, re]) => re.test(f.name)));
// `explain` keeps the concepts spoken for in the bits of one number.
if (CONCEPTS.length > 31) throw new Error('explain: more concepts than bits in a number');
const NET = new Float64Array(CONCEPTS.length);
const FORMAT_CONCEPT = CONCEPTS.findIndex(([name]) => name === 'format');

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

const JUDGE_NOUNS: Record<string, string> = {
  'judge.hook': 'opening',
  'judge.specificity': 'specificity',
  'judge.voice': 'voice',
  'judge.engagement': 'pull to respond',
};
/** What the offline heuristic rewards (heuristic-judge.ts), so its grade can be acted on. */
const HEURISTIC_HINTS: Record<string, string> = {
  'judge.hook': 'it rates an opening of 3-25 words with a number, a name or a first-person moment higher',
  'judge.specificity': 'it rates numbers, names and tagged people higher, and vague words and jargon lower',
  'judge.voice': 'it rates writing in the first person higher, and stock phrases and jargon lower',
  'judge.engagement':
    'it rates personal news, a call to comment, a closing question and tagged people higher',
};

function ruleSignal(hit: RuleHit, effect: number): Signal {
  const impact = effect > 0 ? 'positive' : effect < 0 ? 'negative' : hit.impact;
  const agrees = impact === hit.impact;
  const detail = agrees
    ? hit.detail
    : `${hit.detail.replace(/[.;:]\s*$/, '')}; but within an author's own posts it has gone with ${impact === 'positive' ? 'more' : 'less'} engagement, so the model counts it ${points(effect)}.`;
  return asSignal(hit, impact, weightOf(effect), detail);
}

/**
 * The hit as a signal (its fields but `points`, in their order), with `impact`, `weight` and
 * `detail` replaced: what `{ ...rest, impact, weight, detail }` of `{ points, ...rest } = hit`
 * gives for a hit made by rule-kit.ts `hit` (every hit is), without the object rest copy (1.1%
 * of the scorer's time in a CPU profile, 2026-11-29).
 */
function asSignal(hit: RuleHit, impact: Signal['impact'], weight: number, detail: string): Signal {
  return { rule: hit.rule, dimension: hit.dimension, impact, weight, label: hit.label, detail };
}

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
  /** The post as written, so a quoted word keeps the author's spelling. */
  text: string;
  /** `text.toLowerCase()` when the caller has it (the rules' features of the same text). */
  lower?: string;
}

const BY_NAME = new Map(FEATURES.map((f, i) => [f.name, i]));

function formatDetail(input: ExplainInput, note: string | undefined, effect: number): string {
  const lead = note ? `${note.replace(/\s+$/, '')} ` : '';
  if (!input.measuredFormats.has(input.media))
    return `${lead}The training posts hold too few ${FORMAT_GROUPS[input.media]} to measure, so the model takes the published figure (${points(effect)}).`;
  return `${lead}Among the same authors' posts, ${FORMAT_GROUPS[input.media]} did ${effect >= 0 ? 'better' : 'worse'} than their posts with text only (${points(effect)}).`;
}

function measureSignal(input: ExplainInput, index: number, effect: number): Signal | null {
  const spec = FEATURES[index]!;
  const impact = effect > 0 ? 'positive' : 'negative';
  const value = input.x[index]!;
  const mean = input.means[index]!;
  const more = impact === 'positive' ? 'more' : 'less';
  let label = spec.label;
  let detail: string;
  if (spec.name === 'text.word_choice') {
    const words = strongestWords(input.words, input.known, effect > 0, 4);
    // Without a word to name, a writer could not act on it: no signal (the score still counts it).
    if (words.length === 0) return null;
    const lower = new LowerForWords(input.text, input.lower);
    const mine = words.map((w) => `"${asWritten(w, input.text, lower.for(w))}"`);
    detail = `Words such as ${mine.join(', ')} have gone with ${more} engagement in the same authors' other posts (${points(effect)}).`;
  } else if (spec.kind === 'judge') {
    const noun = JUDGE_NOUNS[spec.name]!;
    const grade = Math.round(100 * value);
    const typical = Math.round(100 * mean);
    if (input.judge === 'heuristic') {
      label = `${spec.label} (heuristic grade)`;
      detail = `A heuristic formula, not a reader, rates the ${noun} at ${grade}/100; a typical post gets ${typical}, and the rating counts ${points(effect)}; ${HEURISTIC_HINTS[spec.name]}.`;
    } else {
      label = `${spec.label} (language model's grade)`;
      detail = `The language model rates the ${noun} at ${grade}/100; a typical post gets ${typical}, and the rating counts ${points(effect)}.`;
    }
  } else if (spec.kind === 'media') {
    detail = formatDetail(input, undefined, effect);
  } else {
    const side = sideOf(spec.name, value, mean);
    detail = side
      ? `${side.post}; among the same authors' posts, ${side.group} went with ${more} engagement (${points(effect)}).`
      : `${spec.label} went with ${more} engagement among the same authors' posts (${points(effect)}).`;
  }
  return { dimension: spec.dimension, impact, weight: weightOf(effect), label, detail, rule: spec.name };
}

/**
 * Signals for every fired rule, and for up to `limit` other features (largest effect first):
 * only those are worded, so scoring does not pay for sentences it would drop.
 */
export function explain(input: ExplainInput, limit = 12): Signal[] {
  const { hits, x, effects } = input;
  // Net effect of each concept: the side the model means (one array for every call, as
  // model.ts `applyModel` explains; nothing keeps it).
  const net = NET.fill(0);
  for (let i = 0; i < FEATURES.length; i++) {
    const c = CONCEPT_OF_FEATURE[i]!;
    if (c !== -1) net[c] = net[c]! + effects[i]!;
  }
  // By feature index (`BY_NAME` of the name; feature names are unique), undefined for none.
  const agrees = (i: number | undefined, effect: number, impact: string) => {
    const c = i === undefined ? -1 : CONCEPT_OF_FEATURE[i]!;
    if (c === -1) return true;
    const n = c === FORMAT_CONCEPT ? effect : net[c]!;
    return Math.abs(n) < 1e-9 || n > 0 === (impact === 'positive');
  };
  const mediaIndex = BY_NAME.get(`media.${input.media}`)!;
  const mediaEffect = effects[mediaIndex]!;
  const out: Signal[] = [];
  let formatShown = false;
  for (const h of hits) {
    if (QUALITY_RULES.has(h.rule)) {
      out.push(ruleSignal(h, h.points));
      continue;
    }
    if (h.rule === 'format.multiplier') {
      // The format's effect is its media feature's, estimated from the data (features.ts).
      out.push(
        asSignal(
          h,
          mediaEffect > 0 ? 'positive' : mediaEffect < 0 ? 'negative' : h.impact,
          weightOf(mediaEffect),
          formatDetail(input, h.detail, mediaEffect),
        ),
      );
      formatShown = true;
      continue;
    }
    const i = BY_NAME.get(h.rule);
    const effect = i === undefined ? 0 : effects[i]!;
    const signal = ruleSignal(h, effect);
    if (agrees(i, effect, signal.impact)) out.push(signal);
  }
  const candidates: number[] = [];
  for (let i = 0; i < FEATURES.length; i++) {
    const spec = FEATURES[i]!;
    if (spec.kind === 'rule' || Math.abs(effects[i]!) < MIN_EFFECT) continue;
    // One format signal, for the format the post has (text only is the baseline: no signal).
    if (spec.kind === 'media' && (x[i] === 0 || i !== mediaIndex || formatShown || input.media === 'none'))
      continue;
    if (!agrees(i, effects[i]!, effects[i]! > 0 ? 'positive' : 'negative')) continue;
    // Largest effect first, by insertion (stable, as `sort` is, so ties keep feature order):
    // a few dozen candidates, where `sort` cost more in calls into its comparator.
    const size = Math.abs(effects[i]!);
    let at = candidates.length;
    candidates.push(i);
    while (at > 0 && Math.abs(effects[candidates[at - 1]!]!) < size) {
      candidates[at] = candidates[at - 1]!;
      at--;
    }
    candidates[at] = i;
  }
  let worded = 0;
  // One measure per concept, its largest: two "Post length" lines with two figures read as a
  // contradiction even when both point the same way.
  // The concepts spoken for, one bit each (no array made per call).
  let spoken = 0;
  for (const i of candidates) {
    if (worded === limit) break;
    const concept = CONCEPT_OF_FEATURE[i]!;
    if (concept >= 0 && (spoken & (1 << concept)) !== 0) continue;
    const signal = measureSignal(input, i, effects[i]!);
    if (signal) {
      out.push(signal);
      worded++;
      if (concept >= 0) spoken |= 1 << concept;
    }
  }
  return out;
}

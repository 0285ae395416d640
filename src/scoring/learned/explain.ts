import type { RuleHit } from '../rule-kit.ts';
import type { Signal } from '../types.ts';
import { FEATURES, type WordWeights } from './features.ts';
import { strongestWords } from './words.ts';

/**
 * Signals from the learned contributions. Every fired rule is a signal (its `rule` name and
 * wording), but its impact and weight are the model's: the sign and size of the rule's effect
 * on `overall` for this post. Measures, media and judge grades become signals when their
 * effect reaches half a point. Weight 1-5 follows the effect in overall points.
 */

const MIN_EFFECT = 0.5;

export function weightOf(points: number): number {
  const p = Math.abs(points);
  return p >= 6 ? 5 : p >= 4 ? 4 : p >= 2.5 ? 3 : p >= 1.2 ? 2 : 1;
}

const signed = (points: number) => `${points >= 0 ? '+' : '-'}${Math.abs(points).toFixed(1)}`;

function ruleSignal(hit: RuleHit, points: number): Signal {
  const impact = points > 0 ? 'positive' : points < 0 ? 'negative' : hit.impact;
  const agrees = impact === hit.impact;
  const detail = agrees
    ? hit.detail
    : `${hit.detail.replace(/[.;:]\s*$/, '')}; but within an author's own posts it has gone with ${impact === 'positive' ? 'more' : 'less'} engagement, so the model counts it ${signed(points)} points.`;
  const { points: _points, ...signal } = hit;
  return { ...signal, impact, weight: weightOf(points), detail };
}

function measureSignal(
  index: number,
  points: number,
  value: number,
  mean: number,
  known: readonly number[],
  words: WordWeights,
): Signal {
  const spec = FEATURES[index]!;
  const impact = points > 0 ? 'positive' : 'negative';
  let detail: string;
  if (spec.name === 'text.word_choice') {
    const mine = strongestWords(words, known, points > 0, 4).map((w) => `"${w}"`);
    detail = `Words such as ${mine.join(', ') || 'these'} have gone with ${impact === 'positive' ? 'more' : 'less'} engagement than the same authors' other posts (${signed(points)} points).`;
  } else if (spec.kind === 'media') {
    detail =
      spec.name === 'media.unknown'
        ? `Without the format the model takes a typical post's (${signed(points)} points); set \`media\` for a closer score.`
        : `${spec.label}: the same authors' posts in this format did ${impact === 'positive' ? 'better' : 'worse'} than their posts in other formats (${signed(points)} points).`;
  } else if (spec.kind === 'judge') {
    detail = `The judge graded this ${Math.round(100 * value)}/100; the model counts the grade ${signed(points)} points.`;
  } else {
    detail = `${spec.label} is ${value >= mean ? 'above' : 'below'} the typical post, which went with ${impact === 'positive' ? 'more' : 'less'} engagement within an author's own posts (${signed(points)} points).`;
  }
  return {
    dimension: spec.dimension,
    impact,
    weight: weightOf(points),
    label: spec.label,
    detail,
    rule: spec.name,
  };
}

export interface ExplainInput {
  hits: readonly RuleHit[];
  x: Float64Array;
  effects: Float64Array;
  means: readonly number[];
  /** The post's distinct words the model has an effect for (words.ts `wordPass`). */
  known: readonly number[];
  words: WordWeights;
}

const BY_NAME = new Map(FEATURES.map((f, i) => [f.name, i]));

/**
 * Signals for every fired rule, and for up to `limit` other features (largest effect first):
 * only those are worded, so scoring does not pay for sentences it would drop.
 */
export function explain({ hits, x, effects, means, known, words }: ExplainInput, limit = 12): Signal[] {
  const out: Signal[] = [];
  for (const h of hits) {
    const i = BY_NAME.get(h.rule);
    out.push(ruleSignal(h, i === undefined ? 0 : effects[i]!));
  }
  const candidates: number[] = [];
  for (let i = 0; i < FEATURES.length; i++) {
    if (FEATURES[i]!.kind === 'rule' || Math.abs(effects[i]!) < MIN_EFFECT) continue;
    // A format signal only for the format the caller named.
    if (FEATURES[i]!.kind === 'media' && (x[i] === 0 || FEATURES[i]!.name === 'media.unknown')) continue;
    candidates.push(i);
  }
  candidates.sort((a, b) => Math.abs(effects[b]!) - Math.abs(effects[a]!));
  for (const i of candidates.slice(0, limit))
    out.push(measureSignal(i, effects[i]!, x[i]!, means[i]!, known, words));
  return out;
}

import { factorWords } from './factor-words.ts';
import type { MeasuredEffect, PersonalModel } from './fit.ts';

/**
 * Which measured effects of an author's history are told, and in which direction: the one rule
 * insights' factors and the personal score's signals share, so both say the same thing.
 *
 * An effect is told as lifting posts when three things agree: the author's posts with the
 * feature earned a higher median than those without (the figures printed beside it), the
 * difference is clear (Benjamini-Hochberg over every feature tested in this history, under
 * CLEAR_Q: of the effects told, about one in ten may be chance), and the personal model weighs
 * the feature the same way (it moves the personal score in that direction). Holding posts back
 * is the mirror. With a small history little is clear and the personal model is mostly the
 * general one, so less is told, rather than a lift the figures beside it contradict.
 */

/** The false discovery rate an effect must be under to be told. */
export const CLEAR_Q = 0.1;
/** The personal model must move engagement by at least this factor (either way) at the feature's typical value. */
const MODEL_MOVES = 0.01;

export type Direction = 'lifts' | 'holds back';

/** The direction an effect is told in, or null when it is not told. */
export function toldDirection(e: MeasuredEffect): Direction | null {
  if (factorWords(e.feature) === undefined || !(e.q < CLEAR_Q)) return null;
  if (e.multiple > e.without && e.modelMultiple > 1 + MODEL_MOVES) return 'lifts';
  if (e.multiple < e.without && e.modelMultiple < 1 - MODEL_MOVES) return 'holds back';
  return null;
}

const strength = (e: MeasuredEffect) => Math.abs(Math.log(e.modelMultiple));

/**
 * The told effects, strongest in the personal model first, one per topic (the strongest: a
 * link rule and a link count are one thing to a writer), optionally only those `present` in a post.
 */
export function toldEffects(
  model: PersonalModel,
  present: (feature: string) => boolean = () => true,
): { effect: MeasuredEffect; direction: Direction }[] {
  const seen = new Set<string>();
  const out: { effect: MeasuredEffect; direction: Direction }[] = [];
  const told = model.effects
    .map((effect) => ({ effect, direction: toldDirection(effect) }))
    .filter((t): t is { effect: MeasuredEffect; direction: Direction } => t.direction !== null)
    .sort((a, b) => strength(b.effect) - strength(a.effect));
  for (const t of told) {
    const topic = factorWords(t.effect.feature)!.topic;
    if (seen.has(topic) || !present(t.effect.feature)) continue;
    seen.add(topic);
    out.push(t);
  }
  return out;
}

/** A multiple as printed: 0.46x, 2.3x, 14x; under 0.01 it would print as 0.00x, so it says so. */
export function timesText(m: number): string {
  if (m < 0.005) return 'under 0.01x';
  return `${m.toFixed(m >= 10 ? 0 : m >= 2 ? 1 : 2)}x`;
}

/**
 * The effect's figures in one sentence: "Your 14 posts written in the first person earned 2.10x
 * your median engagement, and the 10 others earned 0.60x." Both at the precision they are kept in (two
 * decimals), so two figures that differ never print alike.
 */
export function effectSentence(e: MeasuredEffect): string {
  const words = factorWords(e.feature);
  const posts = words ? words.posts : 'posts with it';
  return `Your ${e.posts} ${posts} earned ${e.multiple.toFixed(2)}x your median engagement, and the ${e.withoutPosts} others earned ${e.without.toFixed(2)}x.`;
}

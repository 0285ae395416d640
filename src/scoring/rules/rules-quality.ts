import { wordOrder } from '../learned/word-order.ts';
import { GENERIC_RULE } from './generic-text.ts';
import { hit, type RuleContext, type RuleHit } from './rule-kit.ts';

/**
 * Text-quality rules: text that is not real writing (a sentence copied to fill the length,
 * words in an order no sentence has) scores below the post it was made from, whatever its
 * other features say. No post in the training data is degenerate, so no engagement figure can
 * price this: the points are a stated prior (a reader cannot read it, so it earns nothing),
 * set so that such text loses more than any feature of real writing can add. They are not
 * model features: like caps they apply after the learned model, lowering every dimension by
 * their points (scorer.ts `scoreWith`), so `overall` drops by the same points.
 * Measured on the training posts (docs/scoring.md): almost no real post trips either.
 */

/** Rules applied after the model, to every dimension. */
export const QUALITY_RULES: ReadonlySet<string> = new Set([
  'writing.repetition',
  'writing.word_order',
  GENERIC_RULE,
]);

/** Repetition: share of repeated sentences, or lexical diversity below the real range. */
const REPEAT_FIRES = 0.25;
const REPEAT_POINTS = 40;
/** Herdan's C (log distinct words / log words): real posts 0.88 at the 1st percentile. */
const DIVERSITY_FLOOR = 0.85;
const DIVERSITY_SPAN = 0.35;
const DIVERSITY_MIN_WORDS = 30;

/**
 * Word order: the points grow with the mean log-ratio's distance under ORDER_FLOOR (real posts:
 * median 0.26, 3% below 0.05), but the rule speaks only under ORDER_FIRES. Words shuffled within
 * their lines sit at a median of -0.37 (97% under 0.01 however short); between the two stand
 * plain English posts of headlines, names and lists (62 of 4,943 real posts were told their words
 * were out of order at 0.05, 2026-12-03), and a claim that is false of them is not made.
 */
const ORDER_FLOOR = 0.05;
const ORDER_FIRES = -0.1;
const ORDER_POINTS_PER_UNIT = 80;
const ORDER_MAX_POINTS = 40;
/** Fewer pairs than this say little; the points grow to full at ORDER_FULL_PAIRS. */
const ORDER_MIN_PAIRS = 8;
const ORDER_FULL_PAIRS = 30;
/** English posts have at least this share of common words; the model says nothing on others. */
const ORDER_MIN_CLASS_SHARE = 0.25;

export function qualityRules({ f }: RuleContext, hits: RuleHit[]): void {
  // One pass over the tokens gives both the word order and the number of distinct words.
  // The tokens' strings are cut only if the lookup is out of date (text-features.ts).
  const order = wordOrder(f.tokens, f.wordFacts);
  const diversity = order.words < DIVERSITY_MIN_WORDS ? 1 : Math.log(order.distinct) / Math.log(order.words);
  const lowDiversity = Math.min(1, Math.max(0, (DIVERSITY_FLOOR - diversity) / DIVERSITY_SPAN));
  const repetition = Math.max(f.repeatedShare, lowDiversity);
  if (repetition >= REPEAT_FIRES) {
    const share = Math.round(100 * f.repeatedShare);
    hits.push(
      hit(
        'writing.repetition',
        'voice',
        -Math.round(REPEAT_POINTS * repetition),
        'Repeated text',
        // The copied sentences are the finding whenever they alone reach the threshold: a
        // sentence written 80 times also leaves few different words, but "repeats a sentence"
        // is what the writer can find and cut.
        f.repeatedShare >= REPEAT_FIRES
          ? {
              finding: `About ${share}% of the text repeats a sentence already written`,
              act: 'say each thing once and let the post be as long as what you have to say',
            }
          : {
              finding: 'The post uses few different words for its length, as text padded by repetition does',
              act: 'say each thing once',
            },
        4,
      ),
    );
  }
  if (
    order.pairs >= ORDER_MIN_PAIRS &&
    order.classShare >= ORDER_MIN_CLASS_SHARE &&
    order.plausibility < ORDER_FIRES
  ) {
    const confidence = Math.min(1, order.pairs / ORDER_FULL_PAIRS);
    const points = Math.min(
      ORDER_MAX_POINTS,
      Math.round(ORDER_POINTS_PER_UNIT * (ORDER_FLOOR - order.plausibility) * confidence),
    );
    if (points >= 1)
      hits.push(
        hit(
          'writing.word_order',
          'structure',
          -points,
          'Words out of sentence order',
          {
            finding:
              'Many words stand in an order that real sentences rarely use, so the text does not read as sentences',
            act: 'write it out in full sentences',
          },
          4,
        ),
      );
  }
}

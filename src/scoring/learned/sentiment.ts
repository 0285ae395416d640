import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Sentiment from VADER's human-rated lexicon (Hutto & Gilbert 2014), as shipped in the
 * `vader-sentiment` npm package (vader_lexicon.txt: 7,500 words and emoticons, each the mean
 * of ten raters' valence from -4 to +4). The package's own analyser re-tokenises every
 * sentence with many passes (under 1,000 posts/s on a 1,300-character post), so the scorer
 * applies the lexicon to the tokens it already has, with VADER's negation rule (a negator in
 * the three preceding words scales a valence by -0.74) and its compound normalisation
 * (x / sqrt(x^2 + 15)). Loaded on first use, so start-up does not pay for it.
 */

export interface Sentiment {
  /** VADER compound score of the whole text, -1 to 1. */
  compound: number;
  /** Share of words with a positive / negative valence. */
  positive: number;
  negative: number;
}

/** VADER's negators (vaderSentiment.js NEGATE), as this tokenizer spells them. */
export const NEGATORS: ReadonlySet<string> = new Set(
  "aint arent cannot cant couldnt didnt doesnt dont hadnt hasnt havent isnt mightnt mustnt neither neednt never none nope nor not nothing nowhere oughtnt shant shouldnt wasnt werent without wont wouldnt rarely seldom despite ain't aren't can't couldn't didn't doesn't don't hadn't hasn't haven't isn't mightn't mustn't needn't oughtn't shan't shouldn't wasn't weren't won't wouldn't".split(
    ' ',
  ),
);
export const NEGATION_SCALAR = -0.74;
export const COMPOUND_ALPHA = 15;

let lexicon: Map<string, number> | null = null;

/** VADER's lexicon, loaded once. */
export function vaderLexicon(): ReadonlyMap<string, number> {
  lexicon ??= loadLexicon();
  return lexicon;
}

function loadLexicon(): Map<string, number> {
  const path = createRequire(import.meta.url).resolve('vader-sentiment/vader_lexicon.txt');
  const map = new Map<string, number>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const tab = line.indexOf('\t');
    if (tab <= 0) continue;
    const valence = Number.parseFloat(line.slice(tab + 1, line.indexOf('\t', tab + 1)));
    if (Number.isFinite(valence)) map.set(line.slice(0, tab).toLowerCase(), valence);
  }
  return map;
}

/** Sentiment of lower-cased word tokens (phrases.ts `tokenize`). */
export function sentimentOf(tokens: readonly string[]): Sentiment {
  lexicon ??= loadLexicon();
  let sum = 0;
  let positive = 0;
  let negative = 0;
  let words = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === '?' || t === '"') continue;
    words++;
    let v = lexicon.get(t);
    if (v === undefined) continue;
    for (let k = Math.max(0, i - 3); k < i; k++) {
      if (NEGATORS.has(tokens[k]!)) {
        v *= NEGATION_SCALAR;
        break;
      }
    }
    sum += v;
    if (v > 0) positive++;
    else if (v < 0) negative++;
  }
  return {
    compound: sum / Math.sqrt(sum * sum + COMPOUND_ALPHA),
    positive: words ? positive / words : 0,
    negative: words ? negative / words : 0,
  };
}

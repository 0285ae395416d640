import { tagText } from '../text/tagger.ts';
import type { Theme } from '../text/themes.ts';

/**
 * Whether a noun phrase the tagger found is a topic a plan can have as a pillar. The lite model
 * reads some words the writer did not mean as nouns, and the phrases then name no topic:
 *  - a cc line, whose names are people told about the post ("cc Taheera Lovell"), and handles;
 *  - an honorific alone ("Mrs"), the title of a name rather than a topic, and an idiom's
 *    object ("took place" is about no place);
 *  - a clause read as a phrase, as headlines and short sentences are ("Systems affect
 *    outcomes", "Teachers change lives", "Proscia Raises", "Likely make decisions", "to
 *    Transform AI-Driven Pathology"): read again in lower case, one of its words is a verb.
 */

/** A cc or hat-tip and the names after it, to the end of the names. */
const CC =
  /(?:^|[\s(])(?:cc|h\/t|hat tip)\b:?\s+(?:@[\p{L}\p{N}_.]+|\p{Lu}[\p{L}'’.-]*)(?:(?:\s*,\s*|\s+and\s+|\s+)(?:@[\p{L}\p{N}_.]+|\p{Lu}[\p{L}'’.-]*))*/giu;

/** The brief without its cc lines: the people named there are told about the post, not its topic. */
export const withoutCcLines = (text: string): string => text.replace(CC, ' ');

const HONORIFIC = /^(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam|dame|lord|lady)\.?$/i;
/** Words that read as verbs in lower case yet head or modify real topics ("AI" reads as one). */
const NEVER_A_VERB = /^(?:ai|ml|ux|ui|hr|it|pr)$/i;
/** A participle modifies a noun ("moving assembly line", "AI-driven pathology"): no clause. */
const PARTICIPLE = /(?:ing|ed|en)$/;

const verbAt = (words: string[], k: number) => {
  const t = tagText(words.join(' '))[k];
  return t?.pos === 'VERB' && !PARTICIPLE.test(t.normal) && !NEVER_A_VERB.test(t.normal) ? t : null;
};

/** A plural noun, as wink reads the word alone ("systems" -> "system", "people"). */
const isPlural = (word: string) => {
  const t = tagText(word)[0];
  return t !== undefined && t.pos === 'NOUN' && (t.lemma !== t.normal || t.normal === 'people');
};

/** Whether a phrase is a clause: a finite verb inside it, read in lower case. */
function isClause(text: string, brief: string): boolean {
  const words = text
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => /\p{L}/u.test(w));
  if (words.length < 2) return false;
  // "Proscia Raises", "Systems affect outcomes": a verb after the first word, read alone, that
  // agrees with the word before it ("Apple Pay", "rate cut" are names and nouns).
  for (let k = 1; k < words.length; k++) {
    const verb = verbAt(words, k);
    if (verb && (verb.lemma === verb.normal) === isPlural(words[k - 1]!)) return true;
  }
  // "Teachers change lives", "Users open Discord": after a plural subject, a word with an object
  // is a verb where "they always" would take it.
  for (let k = 1; k < words.length - 1; k++) {
    if (isPlural(words[k - 1]!) && verbAt(['they', 'always', words[k]!, words[k + 1]!], 2)) return true;
  }
  // An adjective goes before its noun: after a plural inside a phrase it is a verb wink knows
  // only as an adjective ("users open Discord").
  const read = tagText(words.join(' '));
  for (let k = 1; k < read.length - 1; k++)
    if (read[k]!.pos === 'ADJ' && isPlural(read[k - 1]!.normal) && read[k + 1]!.pos === 'NOUN') return true;
  // "Likely make decisions": a phrase that opens on an adverb before a verb.
  const opening = tagText(`they ${words.join(' ')}`);
  if (opening[1]?.pos === 'ADV' && /ly$/.test(words[0]!) && opening[2]?.pos === 'VERB') return true;
  // "... to Transform AI-Driven Pathology": the infinitive's verb heads the phrase.
  const at = brief.indexOf(text);
  return at > 0 && /\bto\s+$/i.test(brief.slice(Math.max(0, at - 4), at)) && verbAt(words, 0) !== null;
}

/** The object of an idiom is no topic: "it took place", "that makes sense". */
const IDIOM =
  /\b(?:(?:take|takes|took|taken|taking)\s+(?:place|care|part)|(?:make|makes|made|making)\s+sense|(?:pay|pays|paid|paying)\s+attention)\b/gi;

/** Whether a theme names a topic (see above): never a cc line's names, an honorific or a clause. */
export function namesATopic(theme: Theme, brief: string): boolean {
  const words = theme.text.split(/\s+/);
  if (words.every((w) => HONORIFIC.test(w) || w.startsWith('@'))) return false;
  if (/^(?:cc|h\/t)$/i.test(words[0]!)) return false;
  // A word the brief only uses inside an idiom ("took place") is not what it is about.
  if (words.length === 1) {
    const said =
      brief.match(new RegExp(`\\b${theme.text.replace(/[^\p{L}\p{N}]/gu, '')}\\b`, 'giu'))?.length ?? 0;
    const idiom = [...brief.matchAll(IDIOM)].filter((m) =>
      m[0].toLowerCase().endsWith(theme.text.toLowerCase()),
    );
    if (said > 0 && idiom.length >= said) return false;
  }
  return !isClause(theme.text, brief);
}

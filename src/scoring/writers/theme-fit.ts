import { tagText } from '../text/tagger.ts';
import { labelTheme, type Theme, themesOf } from '../text/themes.ts';

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

/**
 * Where a phrase is a clause: the index of its verb among its words, 0 when nothing before the
 * verb could stand as the topic, -1 when it is no clause. Read in lower case.
 */
function clauseVerb(text: string, brief: string): number {
  const words = text
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => /\p{L}/u.test(w));
  if (words.length < 2) return -1;
  // "Proscia Raises", "Systems affect outcomes": a verb after the first word, read alone, that
  // agrees with the word before it ("Apple Pay", "rate cut" are names and nouns); with an
  // object after it ("team cut costs") it is a verb whatever its form.
  for (let k = 1; k < words.length; k++) {
    const verb = verbAt(words, k);
    if (verb && (k < words.length - 1 || (verb.lemma === verb.normal) === isPlural(words[k - 1]!))) return k;
  }
  // "Teachers change lives", "Users open Discord": after a plural subject, a word with an object
  // is a verb where "they always" would take it.
  for (let k = 1; k < words.length - 1; k++)
    if (isPlural(words[k - 1]!) && verbAt(['they', 'always', words[k]!, words[k + 1]!], 2)) return k;
  // An adjective goes before its noun: after a plural inside a phrase it is a verb wink knows
  // only as an adjective ("users open Discord").
  const read = tagText(words.join(' '));
  for (let k = 1; k < read.length - 1; k++)
    if (read[k]!.pos === 'ADJ' && isPlural(read[k - 1]!.normal) && read[k + 1]!.pos === 'NOUN')
      return read.length === words.length ? k : 0;
  // "Likely make decisions": a phrase that opens on an adverb before a verb.
  const opening = tagText(`they ${words.join(' ')}`);
  if (opening[1]?.pos === 'ADV' && /ly$/.test(words[0]!) && opening[2]?.pos === 'VERB') return 0;
  // "... to Transform AI-Driven Pathology": the infinitive's verb heads the phrase.
  const at = brief.indexOf(text);
  return at > 0 && /\bto\s+$/i.test(brief.slice(Math.max(0, at - 4), at)) && verbAt(words, 0) !== null
    ? 0
    : -1;
}

/** The object of an idiom is no topic: "it took place", "that makes sense". */
const IDIOM =
  /\b(?:(?:take|takes|took|taken|taking)\s+(?:place|care|part)|(?:make|makes|made|making)\s+sense|(?:pay|pays|paid|paying)\s+attention)\b/gi;

/**
 * The topic a theme names (see above), or null: a cc line's names, an honorific and an idiom's
 * object name none; a clause names its subject when that is a topic of its own ("Teachers
 * change lives" -> "Teachers", "Our team cut costs" -> "team"), else none.
 */
export function topicOf(found: Theme, brief: string): Theme | null {
  const theme = withoutRunOn(found, brief);
  const words = theme.text.split(/\s+/);
  if (words.every((w) => HONORIFIC.test(w) || w.startsWith('@'))) return null;
  if (/^(?:cc|h\/t)$/i.test(words[0]!)) return null;
  // A word the brief only uses inside an idiom ("took place") is not what it is about.
  if (words.length === 1) {
    const said =
      brief.match(new RegExp(`\\b${theme.text.replace(/[^\p{L}\p{N}]/gu, '')}\\b`, 'giu'))?.length ?? 0;
    const idiom = [...brief.matchAll(IDIOM)].filter((m) =>
      m[0].toLowerCase().endsWith(theme.text.toLowerCase()),
    );
    if (said > 0 && idiom.length >= said) return null;
  }
  const verb = clauseVerb(theme.text, brief);
  if (verb < 0) return theme;
  if (verb === 0) return null;
  // The subject as a theme of its own: themesOf drops one too general to be a topic ("people").
  const subject = words.slice(0, verb).join(' ');
  // With the brief's determiner ("our team"), which the phrase says before its words.
  const said = theme.phrase.split(/\s+/);
  const determiner = said.slice(0, said.length - theme.bare.split(/\s+/).length).join(' ');
  return themesOf(`${determiner} ${subject}`.trim(), 1).find((t) => t.text === subject) ?? null;
}

/** Whether a theme names a topic as it is (topicOf gives it back unchanged). */
export const namesATopic = (theme: Theme, brief: string): boolean => topicOf(theme, brief) === theme;

/** Plurals that modify a noun as they are ("sales teams", "women founders", "news desk"). */
const PLURAL_MODIFIER =
  /^(?:sales|news|ops|operations|analytics|communications|services|systems|goods|earnings|savings|arts|sports|women|men|jobs|materials|logistics|economics|physics|ethics|graphics|electronics|jeans|clothes)$/;
const SINGULAR_DETERMINER = /\b(?:a|an|each|every|this|that|one)\s+$/i;

/**
 * A phrase that runs on into the next clause's subject, where the brief left out a comma or a
 * "that" ("AI summaries residents can read", "make an OpenTable reservation restaurants can
 * check"): the words before that subject, or the theme as it was. Read where the phrase is
 * followed by a verb: the plural that opens the relative clause ("residents") comes right after
 * a plural the phrase already had, or after a singular determiner ("an ... restaurants").
 */
export function withoutRunOn(theme: Theme, brief: string): Theme {
  const words = theme.text.split(/\s+/);
  const at = brief.indexOf(theme.text);
  if (words.length < 2 || at < 0) return theme;
  const next = tagText(brief.slice(at, at + theme.text.length + 30))[words.length];
  if (!next || (next.pos !== 'VERB' && next.pos !== 'AUX')) return theme;
  const plural = words.map((w) => /^\p{Ll}/u.test(w) && isPlural(w));
  let cut = plural.findIndex((p, k) => k > 0 && p && plural[k - 1] && !PLURAL_MODIFIER.test(words[k - 1]!));
  if (cut < 0 && plural.at(-1) && SINGULAR_DETERMINER.test(brief.slice(Math.max(0, at - 8), at)))
    cut = words.length - 1;
  return cut > 0 ? labelTheme(words.slice(0, cut).join(' ')) : theme;
}

/**
 * The themes of a text that name topics (themes.ts, then topicOf), most telling first, once
 * each; the people a cc line names are told about the post, not what it is about.
 */
export function topicsOf(text: string, max: number): Theme[] {
  const brief = withoutCcLines(text);
  const out: Theme[] = [];
  for (const found of themesOf(brief, max + 4)) {
    const t = topicOf(found, brief);
    if (t && !out.some((o) => o.text.toLowerCase() === t.text.toLowerCase())) out.push(t);
    if (out.length >= max) break;
  }
  return out;
}

import { isNounPhrases, midSentence, type NounPhrase, nounPhrases, spokenForm } from './noun-phrases.ts';
import { themeArticle } from './theme-article.ts';

/**
 * Themes of a brief: the noun phrases it is about ("our cloud bill", "sourdough classes",
 * "Q3 launch plans"), for plan pillars and the topics of hooks and angles. The phrases come
 * from wink-nlp's part-of-speech tags (noun-phrases.ts; the model is loaded on demand and
 * released when idle, tagger.ts); each theme keeps how the brief named it (its determiner or
 * possessive) and whether it is plural or a name, so templates write "our cloud bill is",
 * "sourdough classes are", "the small bakery", and never "about small bakery".
 */

export { isNounPhrases, midSentence };

export interface Theme {
  /** As written in the brief, without its determiner ("cloud bill", "Lisbon", "pastel de nata"). */
  text: string;
  /**
   * How a sentence names it: mid-sentence case, with the brief's possessive ("our cloud bill"),
   * "the" for an article or demonstrative ("the small bakery"), plural for "every invoice"
   * ("invoices"), bare for plurals, mass nouns and names ("sourdough classes", "Lisbon").
   */
  phrase: string;
  /** Mid-sentence case, no determiner ("cloud bill", "small bakery"). */
  bare: string;
  /** How a line addressed to the reader names it: "your cloud bill", "sourdough classes", "Lisbon". */
  reader: string;
  /** Takes a plural verb ("sourdough classes are"). */
  plural: boolean;
  /** A name: never takes an article, keeps its capitals. */
  proper: boolean;
  /**
   * Said bare, but a singular common noun that may need "the" ("product launch") or may not
   * ("team culture"): the tagger cannot tell (theme-article.ts). A template then names it where
   * no article is needed ("One topic I keep coming back to: product launch.").
   */
  articleUnknown: boolean;
}

/**
 * The author's own possessives stay; articles, demonstratives and other possessives become
 * "the" ("its program" would point at nothing outside the brief; "your" is the reader's).
 */
const KEPT = new Set(['my', 'our']);
const THE = new Set([
  'the',
  'a',
  'an',
  'this',
  'that',
  'these',
  'those',
  'your',
  'their',
  'his',
  'her',
  'its',
]);
/** "every invoice" is about invoices. */
const DISTRIBUTIVE = new Set(['every', 'each', 'any', 'another']);
/** Nouns too general to head a theme ("a lot", "the way", "great things", "good ones"). */
const EMPTY_HEAD = new Set(['thing', 'way', 'lot', 'kind', 'sort', 'stuff', 'bit', 'one']);
/** ... or to be one alone ("time" is no theme; "setup time" is), like a unit after a count ("five kilometres"). */
const TOO_GENERAL = new Set(['time', 'people', 'day', 'week', 'month', 'year']);
const MAX_WORDS = 4;

export const phraseOf = (text: string): string => text.split(/\s+/).map(midSentence).join(' ');
export const capitalised = (text: string): string =>
  text && !/^\p{Ll}+\p{Lu}/u.test(text) ? text[0]!.toUpperCase() + text.slice(1) : text;

/** "invoice" -> "invoices", "bakery" -> "bakeries", "class" -> "classes" (the last word only). */
export function pluralOf(phrase: string): string {
  if (/(?:s|ch|sh|x|z)$/.test(phrase)) return `${phrase}es`;
  if (/[^aeiou]y$/.test(phrase)) return `${phrase.slice(0, -1)}ies`;
  return `${phrase}s`;
}

/**
 * A plural head: wink's lemma differs from the word and is not a longer form of it ("app" ->
 * "application"); a word the model does not know ("apps") is plural by its ending.
 */
function isPlural(normal: string, lemma: string): boolean {
  if (normal === 'people') return true;
  if (lemma !== normal) return !lemma.startsWith(normal);
  return /[^aiosu']s$/.test(normal) && !/(?:news|ics)$/.test(normal);
}

function themeOf(np: NounPhrase): Theme {
  const words = np.words.slice(-MAX_WORDS);
  const head = words.at(-1)!;
  const proper = words.every((w) => w.pos === 'PROPN');
  const text = words.map((w) => w.value).join(' ');
  const bare = words.map((w) => (w.pos === 'PROPN' ? w.value : midSentence(w.value))).join(' ');
  const plural = isPlural(head.normal, head.lemma);
  const d = np.determiner;
  if (d && DISTRIBUTIVE.has(d) && !plural && !proper) {
    const many = pluralOf(bare);
    return { text, phrase: many, bare, reader: many, plural: true, proper, articleUnknown: false };
  }
  // No determiner in a label line: "Q3 hiring push" takes "the", "remote work" none
  // (theme-article.ts). Inside a sentence the writer's own bare use says it needs none.
  if (d === null && np.inLabel) {
    const article = themeArticle(
      head,
      words.slice(0, -1).map((w) => w.value),
      plural,
      proper,
    );
    if (article === 'the')
      return {
        text,
        phrase: `the ${bare}`,
        bare,
        reader: `your ${bare}`,
        plural,
        proper,
        articleUnknown: false,
      };
    return { text, phrase: bare, bare, reader: bare, plural, proper, articleUnknown: article === 'unknown' };
  }
  const owned = d !== null && (KEPT.has(d) || d.endsWith("'s"));
  // A name keeps "the" ("the World Bank") and an owner ("Maria's Lisbon"), nothing else.
  const phrase = proper
    ? d === 'the' || d?.endsWith("'s")
      ? `${d} ${bare}`
      : bare
    : owned
      ? `${d} ${bare}`
      : d && THE.has(d)
        ? `the ${bare}`
        : bare;
  const reader = !proper && (owned || (d && THE.has(d))) ? `your ${bare}` : bare;
  return { text, phrase, bare, reader, plural, proper, articleUnknown: false };
}

/** Words that already determine a label ("an incredible day", "our launch"): it takes no other. */
const DETERMINED =
  /^(?:the|an?|this|that|these|those|my|our|your|their|his|her|its|every|each|any|another|some|no)\b/i;

/**
 * A label as the user typed it ("Billing ops", "Cash flow", "Q3 hiring push"): said as written,
 * with "the" when its head is one instance ("the Q3 hiring push", theme-article.ts).
 */
export function labelTheme(label: string): Theme {
  const text = label.trim();
  const bare = spokenForm(text);
  const last = nounPhrases(text).at(-1);
  const head = last?.words.at(-1);
  const plural = head ? isPlural(head.normal, head.lemma) : false;
  const proper = head?.pos === 'PROPN' && text === bare;
  const before = bare.split(/\s+/).slice(0, -1);
  // A list ("pricing, hiring and culture") is said as written, as plans and generate say it.
  const listed = /,| and /.test(text);
  const article =
    DETERMINED.test(text) || last?.determiner || listed ? 'none' : themeArticle(head, before, plural, proper);
  if (article === 'the')
    return {
      text,
      phrase: `the ${bare}`,
      bare,
      reader: `your ${bare}`,
      plural,
      proper,
      articleUnknown: false,
    };
  return { text, phrase: bare, bare, reader: bare, plural, proper, articleUnknown: article === 'unknown' };
}

/**
 * The themes of a text, most telling first: phrases of two words or more before single words,
 * then by how often their words recur in the text, then by position. Duplicates (the same
 * words, or a single word inside a longer theme) and lone words too general to be a topic go.
 */
export function themesOf(text: string, max = 6): Theme[] {
  const phrases = nounPhrases(text);
  const counts = new Map<string, number>();
  for (const p of phrases) for (const w of p.words) counts.set(w.lemma, (counts.get(w.lemma) ?? 0) + 1);
  const ranked = phrases
    .map((p) => ({
      p,
      weight:
        Math.min(p.words.length, 2) * 2 + p.words.reduce((s, w) => s + (counts.get(w.lemma) ?? 1) - 1, 0),
    }))
    .sort((a, b) => b.weight - a.weight || a.p.at - b.p.at);
  const out: Theme[] = [];
  const seen: string[][] = [];
  for (const { p } of ranked) {
    const lemmas = p.words.map((w) => w.lemma);
    const head = p.words.at(-1)!;
    const alone = p.words.length === 1;
    if (
      EMPTY_HEAD.has(head.lemma) ||
      (alone && (p.counted || head.stop || TOO_GENERAL.has(head.lemma) || head.normal.length < 3))
    )
      continue;
    const key = lemmas.join(' ');
    if (seen.some((s) => s.join(' ') === key || (lemmas.length === 1 && s.includes(lemmas[0]!)))) continue;
    seen.push(lemmas);
    out.push(themeOf(p));
    if (out.length >= max) break;
  }
  return out;
}

/** The theme said without the author's possessive ("the first marathon" for "my first marathon"). */
export const impersonal = (t: Theme): Theme => ({ ...t, phrase: t.phrase.replace(/^(?:my|our) /, 'the ') });

/** The verb form that agrees with a theme: agree(t, 'deserves', 'deserve'). */
export const agree = (t: Pick<Theme, 'plural'>, singular: string, plural: string): string =>
  t.plural ? plural : singular;

/**
 * Advice about a theme in general, not about the author's own: "cloud bill advice" for "our
 * cloud bill", "advice about sourdough classes", "advice about pricing".
 */
export function adviceAbout(t: Theme): string {
  if (t.plural) return `advice about ${t.phrase.replace(/^(?:my|our|the) /, '')}`;
  return t.phrase === t.bare ? `advice about ${t.bare}` : `${t.bare} advice`;
}

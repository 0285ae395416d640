/**
 * Themes of a brief: the short noun phrases it is about ("late payments", "support tickets",
 * "Q3 content push"), for plan pillars and the topics of hooks and angles. A brief is cut into
 * chunks at punctuation, function words and verb forms; what is left are noun phrases of one
 * to three words. Deterministic and dictionary-free beyond the function-word list: briefs are
 * short, so a chunker that errs towards fewer, cleaner phrases is enough, and nothing is
 * fetched at run time.
 */

/** Words that never sit inside a theme: articles, pronouns, prepositions, auxiliaries, adverbs. */
const STOP = new Set(
  `a an the this that these those my our your their his her its we i you they he she it me us them
  who whom whose which what why how when where whether while if so as than then there here
  to of in on at by for from with without into onto over under about after before during
  between across through via per against among around near up down out off
  and or but nor yet also too very really just only even still already again more most less
  least much many some any every each all both few several no not never ever
  is are was were be been being am do does did done has have had having can could will would
  shall should may might must get gets got getting gotten make makes made let lets
  go goes went going come came take took give gave keep kept put say said says see saw seen
  want wanted need needed know knew think thought feel felt find found use used try tried
  one ones thing things stuff lot lots way ways kind sort bit part
  first second third last next new old other another same such own
  day days week weeks month months year years time times today tomorrow yesterday now soon
  shorter longer better worse faster slower bigger smaller higher lower easier harder
  cut run ran grew grow grown build built ship start stop hit lost lose won win spent spend paid
  began begin became become left leave sent send told tell wrote write brought bring
  forget remember caught taught bought held met heard meant sat stood fell
  call calls called check put explain share shared read ask asked dear surely please
  seconds minutes hours percent lesson lessons tip tips thoughts idea ideas story stories post posts`.split(
    /\s+/,
  ),
);
/** Determiners: an -ing word before one is a verb ("removing the wizard"), not a topic ("billing"). */
const DETERMINER = new Set('the a an our my your their his her its every this that these those'.split(' '));

/** Past forms and adverbs; one before a noun is an adjective ("bootstrapped startup") and stays. */
const VERB_FORM = /^(?:\p{L}{3,}(?<!e)ed|\p{L}+ied|\p{L}+ly)$/u;
const ING = /^\p{L}{3,}ing$/u;
const ADJECTIVE = /^\p{L}{3,}(?:ous|ful|less|ive|able|ible)$/u;
/** After one of these an -ing word is a topic even before a determiner ("lessons from hiring our..."). */
const TOPIC_PREPOSITION = new Set('from about on of for into after before with in'.split(' '));
/** Single nouns that take no plural; other lone lower-case nouns read as plurals in hooks. */
const MASS = new Set(
  `feedback software hardware research advice work data content revenue support cash money time design
  security quality setup burnout debt health education equipment information knowledge news progress
  traffic trust luck focus space energy help music art evidence`.split(/\s+/),
);
const NO_PLURAL =
  /(?:s|ing|ion|ment|ness|ity|ship|ure|ism|ics|ance|ence|th|ware|age|ise|ize|ed|men|people|children|ght)$/;

/** "invoice" -> "invoices", so a hook reads "Most advice about invoices"; phrases, names and mass nouns stay. */
function pluralOf(phrase: string): string {
  if (phrase.includes(' ') || phrase !== phrase.toLowerCase() || MASS.has(phrase) || NO_PLURAL.test(phrase))
    return phrase;
  if (/(?:ch|sh|x|z)$/.test(phrase)) return `${phrase}es`;
  if (/[^aeiou]y$/.test(phrase)) return `${phrase.slice(0, -1)}ies`;
  return `${phrase}s`;
}
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’&+-]*/gu;

export interface Theme {
  /** As written in the brief, trimmed. */
  text: string;
  /**
   * As a hook reads it: lower-cased except acronyms and words with digits or inner capitals
   * ("Q3", "SaaS"), a lone countable noun in the plural ("invoices").
   */
  phrase: string;
}

/** A word as it reads mid-sentence: acronyms, names with inner capitals and codes keep their case. */
export function midSentence(word: string): string {
  if (/\d/.test(word) || /^\p{Lu}{2,}s?$/u.test(word) || /\p{Ll}\p{Lu}/u.test(word)) return word;
  return word.toLowerCase();
}

export const phraseOf = (text: string): string => text.split(/\s+/).map(midSentence).join(' ');
export const capitalised = (text: string): string => (text ? text[0]!.toUpperCase() + text.slice(1) : text);

/**
 * Noun-phrase chunks of a text, most telling first: multi-word phrases before single words,
 * then by how often their words recur, then by position. Duplicates (case-insensitive, or a
 * single word already inside a longer phrase) are dropped.
 */
export function themesOf(text: string, max = 6): Theme[] {
  return rankedChunks(text)
    .slice(0, max)
    .map((t) => ({ text: t, phrase: pluralOf(t) }));
}

/** True when a text is only noun phrases ("pricing, hiring and culture", "Q3 launch"), no clause. */
export function isNounPhrases(text: string): boolean {
  const covered = rankedChunks(text).join(' ').toLowerCase().split(' ');
  const words = (text.match(WORD) ?? []).map((w) => w.toLowerCase());
  return words.every((w) => covered.includes(w) || w === 'and' || w === 'or' || w === '&');
}

function rankedChunks(text: string): string[] {
  const chunks: { words: string[]; at: number }[] = [];
  let at = 0;
  const clauses = text
    .split(/(?<=[.!?…])\s+|\n+/u)
    .flatMap((sentence) => sentence.split(/[.,;:!?()"“”—–]+|\s-\s/u).map((c, k) => ({ c, first: k === 0 })));
  for (const { c: clause, first } of clauses) {
    let current: string[] = [];
    const flush = () => {
      // A trailing number or lone letter is not a theme ("the switch 2" stays "switch").
      while (current.length && /^(?:\d[\d.,]*|\p{L})$/u.test(current.at(-1)!)) current.pop();
      const last = current.slice(-3);
      while (last.length && /^\d/.test(last[0]!)) last.shift();
      if (last.length) chunks.push({ words: last, at: at++ });
      current = [];
    };
    const words = clause.match(WORD) ?? [];
    // A capital opening a sentence is grammar; one inside it marks a name ("your Pinterest").
    if (first && words[0]) words[0] = midSentence(words[0]);
    const lowers = words.map((w) => w.toLowerCase().replace(/’/g, "'"));
    for (let i = 0; i < words.length; i++) {
      const lower = lowers[i]!;
      const next = lowers[i + 1];
      const beforeDeterminer = ING.test(lower) && next !== undefined && DETERMINER.has(next);
      if (beforeDeterminer && TOPIC_PREPOSITION.has(lowers[i - 1] ?? '')) {
        flush();
        current.push(words[i]!);
        flush();
        continue;
      }
      const verb = (VERB_FORM.test(lower) && (next === undefined || STOP.has(next))) || beforeDeterminer;
      if (STOP.has(lower) || lower.includes("'") || verb) flush();
      // A count opens no theme: "40 clinic managers" is about clinic managers.
      else if (current.length === 0 && /^\d/.test(lower)) continue;
      else current.push(words[i]!);
    }
    flush();
  }
  const counts = new Map<string, number>();
  for (const c of chunks)
    for (const w of c.words) counts.set(w.toLowerCase(), (counts.get(w.toLowerCase()) ?? 0) + 1);
  const ranked = chunks
    .filter((c) => c.words.some((w) => /\p{L}{3,}/u.test(w)))
    // A lone adjective is no theme ("curious", "helpful").
    .filter((c) => c.words.length > 1 || !ADJECTIVE.test(c.words[0]!.toLowerCase()))
    .map((c) => ({
      ...c,
      weight:
        Math.min(c.words.length, 2) * 2 + c.words.reduce((s, w) => s + counts.get(w.toLowerCase())! - 1, 0),
    }))
    .sort((a, b) => b.weight - a.weight || a.at - b.at);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const c of ranked) {
    const text = c.words.join(' ');
    const key = text.toLowerCase();
    if (seen.has(key) || (c.words.length === 1 && [...seen].some((s) => s.split(' ').includes(key))))
      continue;
    seen.add(key);
    out.push(text);
  }
  return out;
}

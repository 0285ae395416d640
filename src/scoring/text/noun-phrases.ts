import { lowerCaseReading, type Tagged, tagText } from './tagger.ts';

/**
 * Noun phrases of a text from wink-nlp's POS tags: optional adjectives, nouns and names
 * ending in a NOUN or PROPN ("unused staging environments", "Q3 launch plans"), a foreign
 * joiner kept inside a name ("pastel de nata"), with the determiner or possessive that stood
 * before the phrase ("our", "a", "Maria's"). A few repairs first, where a small model tags
 * short briefs the way they are not meant (see repair()).
 */

export interface NounPhrase {
  /** The phrase's words, modifiers then head. */
  words: Tagged[];
  /** The determiner or possessive before it, lower-cased ("our", "a", "every", "Maria's"), if any. */
  determiner: string | null;
  /** Token index of its first word, for ranking by position. */
  at: number;
  /** Right after a number ("five kilometres"): a lone noun there is a unit, not a topic. */
  counted: boolean;
  /**
   * In a clause with no verb ("Q3 hiring push:", "Simple question."), where a writer drops the
   * article a sentence would need: its bare form there says nothing about countability.
   */
  inLabel: boolean;
}

/** A tagged token, and whether its clause is a label (no verb, see isLabel). */
type Repaired = Tagged & { inLabel: boolean };

const POSSESSIVE = new Set(['my', 'our', 'your', 'their', 'his', 'her', 'its']);
const SUBJECT = new Set(['i', 'we', 'you', 'they', 'he', 'she', 'it']);
/** What may follow a verb that takes an object or a complement ("Put down your", "Launching our"). */
const OBJECT_START = new Set(['DET', 'PRON', 'ADP', 'PART', 'NUM', 'ADV', 'SCONJ', 'VERB', 'AUX']);
const NOMINAL = new Set(['NOUN', 'PROPN']);
/** Capitals that mark a name wherever they stand: acronyms, inner capitals, letters with digits. */
const NAME_SHAPE = /^\p{Lu}{2,}s?$|\p{Ll}\p{Lu}|\p{L}.*\d|\d.*\p{L}/u;
const TITLE = /^\p{Lu}/u;
const AUXILIARY_LEMMAS = new Set(['be', 'have', 'do']);
const PRONOUN_CONTRACTION = /^(?:i|we|you|they|he|she|it|that|there)['’](?:m|re|ve|d|ll|s)$/;

/** A word as it reads mid-sentence: acronyms, names with inner capitals and codes keep their case. */
export function midSentence(word: string): string {
  if (/\d/.test(word) || /^\p{Lu}{2,}s?$/u.test(word) || /\p{Ll}\p{Lu}/u.test(word)) return word;
  return word.toLowerCase();
}

const isCount = (t: Tagged | undefined) => t !== undefined && (t.pos === 'NUM' || t.quantity);
const isDeterminer = (t: Tagged) => t.pos === 'DET' || (t.pos === 'PRON' && POSSESSIVE.has(t.normal));

/**
 * A verb right after a subject its determiner opens, in a clause longer than a label ("Our
 * ICU cut sepsis response time from 22 to 9 minutes"): a past tense that reads as its base
 * form, never a noun ("our ICU cut"). A label is short ("Q3 launch plans").
 */
function afterOwnedSubject(clause: Tagged[], i: number): boolean {
  const subject = clause[i - 1];
  const determiner = clause[i - 2];
  return (
    clause.filter((t) => t.pos !== 'PUNCT').length > LABEL_MAX_WORDS &&
    subject !== undefined &&
    NOMINAL.has(subject.pos) &&
    determiner !== undefined &&
    isDeterminer(determiner)
  );
}
const LABEL_MAX_WORDS = 8;

/** A clause with no subject pronoun, auxiliary or inflected verb is a label ("Q3 content push"). */
function isLabel(clause: Tagged[]): boolean {
  return !clause.some(
    (t) =>
      t.pos === 'AUX' ||
      (t.pos === 'PRON' && SUBJECT.has(t.normal)) ||
      (t.pos === 'VERB' && t.lemma !== t.normal && !t.normal.endsWith('ing')),
  );
}

/**
 * Fixes what the lite model gets wrong on briefs: glued compounds ("12-person") become one
 * modifier; a capitalised word inside a sentence is a name; a capital that only opens a
 * sentence is not ("Late payments"), unless the word is a name elsewhere; a verb right after a
 * determiner, or inside a label, is a noun ("our onboarding redesign", "Q3 launch plans"); a
 * pronoun contraction the model kept whole ("I'm") is a clause's subject and auxiliary.
 */
function repair(input: Tagged[]): Repaired[] {
  const tokens: Repaired[] = [];
  for (let k = 0; k < input.length; k++) {
    const t = input[k]!;
    const hyphen = input[k + 1];
    const right = input[k + 2];
    if (hyphen?.value === '-' && !hyphen.spaced && right && !right.spaced && /\w$/.test(t.value)) {
      const value = `${t.value}-${right.value}`;
      const glued = {
        ...right,
        value,
        normal: value.toLowerCase(),
        lemma: value.toLowerCase(),
        spaced: t.spaced,
      };
      tokens.push({
        ...glued,
        pos: NOMINAL.has(input[k + 3]?.pos ?? '') ? 'ADJ' : right.pos,
        quantity: false,
        inLabel: false,
      });
      k += 2;
    } else tokens.push({ ...t, inLabel: false });
  }
  // Whether each token opens its sentence (a capital there is grammar, not a name).
  const opensSentence = tokens.map((t, k) => k === 0 || tokens[k - 1]!.sentence !== t.sentence);
  const namesInside = new Set<string>();
  tokens.forEach((t, k) => {
    if (!opensSentence[k] && TITLE.test(t.value) && t.pos !== 'PRON') namesInside.add(t.normal);
  });
  tokens.forEach((t, k) => {
    const opens = opensSentence[k];
    // "I'm", "we've", "it's" held as one token: a subject and its auxiliary, never a name.
    if (PRONOUN_CONTRACTION.test(t.normal)) t.pos = 'AUX';
    else if (NAME_SHAPE.test(t.value) && /^(?:NOUN|VERB|ADJ)$/.test(t.pos)) t.pos = 'PROPN';
    else if (!opens && TITLE.test(t.value) && /^(?:NOUN|VERB|ADJ)$/.test(t.pos)) t.pos = 'PROPN';
    else if (opens && t.pos === 'PROPN' && !NAME_SHAPE.test(t.value) && !namesInside.has(t.normal)) {
      if (tokens[k + 1]?.pos === 'NOUN') t.pos = 'ADJ';
      else {
        // "Nurses are tired": a plural wink knows in lower case is a common noun, not a name.
        const lower = lowerCaseReading(t.value);
        if (lower.pos === 'NOUN' && lower.lemma !== t.normal)
          Object.assign(t, { pos: 'NOUN', lemma: lower.lemma });
      }
    }
    // "right now", "right away": an adverb, never the head of "the Southeast right".
    if (t.normal === 'right' && /^(?:now|away|here|there)$/.test(tokens[k + 1]?.normal ?? '')) t.pos = 'ADV';
  });
  let from = 0;
  for (let k = 0; k <= tokens.length; k++) {
    const t = tokens[k];
    if (t && t.pos !== 'PUNCT' && t.sentence === tokens[from]?.sentence) continue;
    const clause = tokens.slice(from, k);
    const label = isLabel(clause);
    for (const c of clause) c.inLabel = label;
    // Right to left, so a verb before one that turned into a noun is read against the noun
    // ("Q3 hiring push": "push" is the head, then "hiring" modifies it).
    for (let i = clause.length - 1; i >= 0; i--) {
      const c = clause[i]!;
      if (c.pos !== 'VERB') continue;
      const before = clause[i - 1];
      const afterDeterminer = before !== undefined && (isDeterminer(before) || before.value === "'s");
      // A verb followed by its object or another verb stays one ("Put down your", "go sell a").
      const takesObject = OBJECT_START.has(clause[i + 1]?.pos ?? '');
      // As a noun it is its own lemma ("hiring", not "hire"), so it does not read as a plural.
      // "be", "have" and "do" are never the topic ("have Greg" is a clause, not a phrase).
      if (AUXILIARY_LEMMAS.has(c.lemma)) continue;
      // "Keep going", "Start building": an imperative and its -ing verb stay a clause.
      if (i === 1 && before?.pos === 'VERB' && before.lemma === before.normal && c.normal.endsWith('ing'))
        continue;
      // "Hiring calls that go wrong": a word a relative pronoun follows is a noun, and an
      // "-ing" word opening the sentence before that subject is its modifier.
      const next = clause[i + 1];
      const relative = (t: Tagged | undefined) => t?.pos === 'PRON' && /^(?:that|who|which)$/.test(t.normal);
      if (
        relative(next) ||
        (i === 0 && c.normal.endsWith('ing') && next?.pos === 'NOUN' && relative(clause[i + 2]))
      ) {
        Object.assign(c, { pos: 'NOUN', lemma: c.normal });
        continue;
      }
      if (afterDeterminer || (label && !takesObject && !afterOwnedSubject(clause, i)))
        Object.assign(c, { pos: 'NOUN', lemma: c.normal });
    }
    from = t?.pos === 'PUNCT' ? k + 1 : k;
  }
  verbsTaggedAsNouns(tokens);
  return tokens;
}

/** Words that open a clause of their own inside a sentence ("as the holidays approach"). */
const CLAUSE_OPENER = new Set([
  'as',
  'when',
  'while',
  'because',
  'if',
  'since',
  'until',
  'before',
  'after',
  'once',
]);
/** A finite verb: an auxiliary, or a verb that is neither a bare "-ing" nor after "to". */
const finite = (t: Tagged, before: Tagged | undefined) =>
  t.pos === 'AUX' || (t.pos === 'VERB' && !t.normal.endsWith('ing') && before?.normal !== 'to');
/** A noun in its base form: wink's lemma is the word itself. */
const baseNoun = (t: Tagged | undefined) => t?.pos === 'NOUN' && t.lemma === t.normal && !t.quantity;
const pluralNoun = (t: Tagged | undefined) =>
  t !== undefined &&
  NOMINAL.has(t.pos) &&
  (t.normal === 'people' || (t.lemma !== t.normal && /s$/.test(t.normal)));

/**
 * The lite model tags a clause's verb as a noun where it follows a plural subject ("People talk
 * a lot", "our minds race toward", "as the holidays approach") or a relative pronoun ("those
 * that use adtech", "people who care about"): a noun phrase would then run through the verb
 * ("people talk", "use adtech"). A base-form noun is the verb when its clause (up to a comma,
 * conjunction or clause opener) has no finite verb besides, and it follows a plural noun and
 * is followed by no noun; or when it follows "who", "which", or a "that" after a noun or
 * pronoun ("I know that feeling" keeps its noun).
 */
/** Whether wink reads a word as a verb after a plural subject ("they matter"). */
const canBeVerb = (word: string) => tagText(`they ${word}`)[1]?.pos === 'VERB';

function verbsTaggedAsNouns(tokens: Repaired[]): void {
  const bounds = (t: Tagged) =>
    t.pos === 'PUNCT' || t.pos === 'CCONJ' || t.pos === 'SCONJ' || CLAUSE_OPENER.has(t.normal);
  let from = 0;
  for (let k = 0; k <= tokens.length; k++) {
    const t = tokens[k];
    if (t && !bounds(t) && t.sentence === tokens[from]?.sentence) continue;
    const clause = tokens.slice(from, k);
    const hasFinite = clause.some((c, i) => finite(c, clause[i - 1]));
    clause.forEach((c, i) => {
      const before = clause[i - 1];
      const after = clause[i + 1];
      // A label's last word after a plural is a verb only if wink reads it as one after "they"
      // ("Shift handovers matter", never "Sales approach" alone... unless wink says so).
      const ending = after === undefined || after.pos === 'PUNCT';
      const afterPlural =
        !hasFinite &&
        pluralNoun(before) &&
        !NOMINAL.has(after?.pos ?? '') &&
        (!c.inLabel || !ending || canBeVerb(c.normal));
      const relative =
        before !== undefined &&
        (/^(?:who|which)$/.test(before.normal) ||
          (before.normal === 'that' && /^(?:NOUN|PROPN|PRON|DET)$/.test(clause[i - 2]?.pos ?? '')));
      if (baseNoun(c) && (afterPlural || relative)) Object.assign(c, { pos: 'VERB', lemma: c.normal });
    });
    from = t && bounds(t) ? k + 1 : k;
  }
}

/** Noun phrases of a text, in order. */
export function nounPhrases(text: string): NounPhrase[] {
  const tokens = repair(tagText(text));
  const out: NounPhrase[] = [];
  let words: Tagged[] = [];
  let determiner: string | null = null;
  let at = 0;
  const flush = () => {
    // A phrase ends on its head: trailing modifiers and joiners go.
    while (words.length && !NOMINAL.has(words.at(-1)!.pos)) words.pop();
    if (words.length)
      out.push({ words, determiner, at, counted: isCount(tokens[at - 1]), inLabel: tokens[at]!.inLabel });
    words = [];
    determiner = null;
  };
  for (const [k, t] of tokens.entries()) {
    if (words.length && t.sentence !== words.at(-1)!.sentence) flush();
    if (isDeterminer(t)) {
      flush();
      determiner = t.normal;
      continue;
    }
    // "Maria's bakery": the owner is a phrase of its own and the determiner of the next.
    if (t.value === "'s" && t.pos === 'PART' && words.length && NOMINAL.has(words.at(-1)!.pos)) {
      // The owner keeps its own determiner: "your company's strategy", never "company's strategy".
      const owner: string = `${determiner ? `${determiner} ` : ''}${words.map((w) => w.value).join(' ')}'s`;
      flush();
      determiner = owner;
      continue;
    }
    // A stop-word adjective ("more", "same", "other") is no part of a theme; an ordinal after
    // a determiner is ("our first engineer").
    if (t.pos === 'ADJ' && t.stop && !(t.entity === 'ORDINAL' && determiner && !words.length)) {
      if (words.length) flush();
      continue;
    }
    // A count between a determiner and its noun leaves the determiner standing ("the 2023 award").
    if ((t.quantity || t.pos === 'NUM') && !words.length) continue;
    const joiner = t.pos === 'X' && /^\p{Ll}+$/u.test(t.value) && NOMINAL.has(words.at(-1)?.pos ?? '');
    if (t.quantity || !(t.pos === 'ADJ' || NOMINAL.has(t.pos) || joiner)) {
      flush();
      continue;
    }
    if (!words.length) at = k;
    words.push(t);
  }
  flush();
  return out;
}

/** True when a text is only noun phrases ("pricing, hiring and culture", "Q3 launch"), no clause. */
export function isNounPhrases(text: string): boolean {
  const tokens = repair(tagText(text));
  return tokens.every(
    (t) => t.pos !== 'VERB' && t.pos !== 'AUX' && !(t.pos === 'PRON' && SUBJECT.has(t.normal)),
  );
}

/** Entities that are a figure on their own; a bare count needs its noun ("40 clinic managers"). */
const FIGURE = new Set(['PERCENT', 'MONEY', 'DURATION']);

/** The figures a text states, as a sentence would say them ("40%", "three months", "five kilometres"). */
export function quantitiesOf(text: string): string[] {
  const tokens = tagText(text);
  const out: string[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const type = tokens[k]!.entity;
    if (!type || !(FIGURE.has(type) || type === 'CARDINAL')) continue;
    let run = '';
    for (; tokens[k]?.entity === type; k++)
      run += `${run && tokens[k]!.spaced ? ' ' : ''}${tokens[k]!.value}`;
    // A count, or a glued measure ("20-minute"), is a figure with the nouns it counts.
    let nouns = '';
    if (type === 'CARDINAL' || run.includes('-'))
      for (let j = k; tokens[j]?.pos === 'NOUN'; j++) nouns += ` ${tokens[j]!.value}`;
    // A lone count says nothing; a long span is a date range or a clause, not a figure.
    if ((type === 'CARDINAL' && !nouns) || run.split(' ').length > 3) continue;
    out.push(`${run}${nouns}`.split(' ').map(midSentence).join(' '));
    k--;
  }
  return [...new Set(out)];
}

/**
 * True for a description that never gets a main verb: "A small bakery in Lisbon that teaches
 * sourdough classes" (an article, a noun phrase, then a relative clause). A post says it as a
 * sentence ("We are a small bakery ...").
 */
export function isDescription(sentence: string): boolean {
  const tokens = tagText(sentence);
  if (!/^an?$/.test(tokens[0]?.normal ?? '')) return false;
  for (const t of tokens) {
    if (t.pos === 'VERB' || t.pos === 'AUX') return false;
    if (/^(?:that|who|which)$/.test(t.normal)) return true;
  }
  return false;
}

/** A label as it reads mid-sentence: names keep their capitals ("Q3 launch with Michael Batnick"). */
export function spokenForm(text: string): string {
  return repair(tagText(text))
    .map((t, k) => `${k && t.spaced ? ' ' : ''}${t.pos === 'PROPN' ? t.value : midSentence(t.value)}`)
    .join('');
}

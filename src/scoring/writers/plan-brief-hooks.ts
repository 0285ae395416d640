import type { HookArchetype } from '../../domain/enums.ts';
import { detectArchetype } from '../rules/hook.ts';
import { splitSentences } from '../text/rewrite-sentences.ts';
import { type Tagged, tagText } from '../text/tagger.ts';
import { normalizePost } from '../text/text-features.ts';
import type { Theme } from '../text/themes.ts';
import { isGenreTheme } from './brief-clean.ts';
import { topicsOf } from './theme-fit.ts';

/**
 * Plan hooks made of the brief itself: its own sentences, as written, where one stands alone
 * (or the first clause of one that does not). So two plans share a hook's wording only where
 * their briefs do, every number of a hook is the brief's, and the hooks of one plan come from
 * different sentences. Only sentences that stand alone are used: whole clauses of 4-22 words,
 * no quote, bracket, link or dash, none that opens on a word pointing back ("This", "It",
 * "But"), none that names a kind of post ("lessons").
 */

export interface BriefHook {
  hook: string;
  /** The archetype the scorer reads in the hook. */
  archetype: HookArchetype;
  /** The brief sentence it came from. */
  source: number;
  /** Where in that sentence: hooks of one sentence that overlap are one hook for a plan (overlaps). */
  span: [number, number];
  /** What the hook is about, for its pillar and angle. */
  theme: Theme | null;
  /** What the sentence does (sentenceKind): its angle asks for what suits it. */
  kind: SentenceKind;
  /** True when the hook is the brief's whole sentence (else a clause of it). */
  verbatim: boolean;
  /** That sentence, as the brief wrote it. */
  from: string;
}

const MAX_WORDS = 22;
const MAX_CHARS = 150;
/** Words that point back at a sentence the hook would not have. */
const POINTS_BACK =
  /^(?:this|that|these|those|it|its|it's|they|them|their|he|she|his|her|him|but|and|so|or|because|which|also|then|yes|no|same|here|there|such|both|another|other|still|even|again)\b/i;
const UNSAFE = /["“”«»‘()[\]{}…@#*|]|’(?!\p{L})|https?:|www\.|\.{2,}|\s[-–—]\s|[—–]|\s-\S|[:;]|\d\s*-\s*\d/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
/** Pronouns that stand for something said elsewhere ("I would love to meet them"). */
const ELSEWHERE = new Set(['it', 'this', 'these', 'those', 'they', 'them', 'he', 'she', 'him', 'her']);

/** Parts of speech a finished sentence does not end on ("... take a minute to", "... and the"). */
const UNFINISHED = new Set(['DET', 'ADP', 'PART', 'CCONJ', 'SCONJ']);
/** Nouns "this" and "that" point at from anywhere: the time of writing ("this year"). */
const NOW = /^(?:year|week|month|morning|evening|quarter|season|summer|winter|spring|fall|autumn|time)$/;

/**
 * A demonstrative pointing at something the hook does not say: "one of those people", "that
 * surge", "with this one". "This year" points at the time of writing; a "that" after a noun or
 * pronoun opens a relative clause ("officials that follow me").
 */
function pointsAt(t: Tagged, k: number, tokens: Tagged[]): boolean {
  if (t.pos !== 'DET' || !/^(?:this|that|these|those)$/.test(t.normal)) return false;
  if (t.normal === 'these' || t.normal === 'those') return true;
  const before = tokens[k - 1];
  if (t.normal === 'that' && before && /^(?:NOUN|PROPN|PRON)$/.test(before.pos)) return false;
  return !NOW.test(tokens[k + 1]?.normal ?? '');
}

const ending = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

/** A sentence that can stand alone as a hook: a whole clause, short, with nothing pointing elsewhere. */
function standsAlone(s: string, tokens: Tagged[]): boolean {
  const words = s.split(/\s+/);
  if (words.length < 4 || words.length > MAX_WORDS || s.length > MAX_CHARS) return false;
  if (!/^[\p{Lu}\d$€£]/u.test(s) || UNSAFE.test(s) || PICTOGRAPH.test(s) || POINTS_BACK.test(s)) return false;
  if (s.split(/\s+/).some((w) => isGenreTheme(w.replace(/[^\p{L}]/gu, '')))) return false;
  if (new Set(tokens.map((t) => t.sentence)).size !== 1) return false;
  // A pronoun stands for something the hook must already have said: a noun before it ("the
  // investments they made"), never one with none ("We met them", "It took place").
  const firstNoun = tokens.findIndex((t) => t.pos === 'NOUN' || t.pos === 'PROPN');
  if (tokens.some((t, k) => t.pos === 'PRON' && ELSEWHERE.has(t.normal) && (firstNoun < 0 || k < firstNoun)))
    return false;
  if (tokens.some(pointsAt)) return false;
  // A sentence the brief left unfinished ("why don't you take a minute to") is no hook.
  const last = tokens.filter((t) => t.pos !== 'PUNCT').at(-1);
  if (last && UNFINISHED.has(last.pos)) return false;
  // A clause: some verb, and more letters than shouting capitals.
  return tokens.some((t) => t.pos === 'VERB' || t.pos === 'AUX') && s !== s.toUpperCase();
}

/** The brief's sentences, a heading's colon taken as a sentence end. */
function sentencesOf(brief: string): string[] {
  return (
    normalizePost(brief)
      .split(/\n+/)
      .flatMap((line) => splitSentences(line))
      // After a heading's colon a clause starts ("Pricing: we raised prices twice"); a sentence
      // that starts in lower case is a piece a wrong split left ("gov. workers"), and stays so.
      .flatMap((s) =>
        s.split(/:\s+(?=\p{L})/u).map((c, i, all) => {
          const whole = i < all.length - 1 ? `${c}.` : c;
          return i > 0 ? whole[0]!.toUpperCase() + whole.slice(1) : whole;
        }),
      )
      .map((s) => s.trim())
      .filter(Boolean)
  );
}

/** Where a sentence splits into clauses that may each stand alone. */
const CLAUSE_BREAK = /,\s+(?=(?:and|but|so|yet)\s)|;\s+|\s[-–—]\s|\s?[—–]\s?/u;
/** A joining word a clause of its own may drop ("and will be documenting ..." -> no: it has no subject). */
const JOINER = /^(?:and|but|so|yet)\s+/i;
/** Opening a reason or a time the sentence asserts: said alone it stays true ("Since we're building ..."). */
/** Opening a condition or a time yet to come: the clause after it is not said alone. */
const CONDITION =
  /^(?:if|unless|until|when|whenever|whether|once|in case|provided|even if|even though|although|though)\b/i;
const ASSERTED_OPENER = /^(?:since|because|as)\s+/i;

interface Part {
  text: string;
  tokens: Tagged[];
  /** Where in the sentence it starts and ends: two parts of one sentence that overlap are one hook. */
  from: number;
  to: number;
}

/** A noun or pronoun before the first verb: the clause says who does what. */
function hasSubject(tokens: Tagged[]): boolean {
  // A verb right after a relative pronoun is the relative clause's ("the companies that
  // received ..."): the part needs a verb of its own.
  const verb = tokens.findIndex(
    (t, k) =>
      (t.pos === 'VERB' || t.pos === 'AUX') && !/^(?:that|who|which)$/.test(tokens[k - 1]?.normal ?? ''),
  );
  return (
    verb > 0 && tokens.slice(0, verb).some((t) => t.pos === 'NOUN' || t.pos === 'PROPN' || t.pos === 'PRON')
  );
}

/** A sentence that opens on a verb's base form tells the reader to do something ("Focus on one thing."). */
const imperative = (tokens: Tagged[]) => tokens[0]?.pos === 'VERB' && tokens[0].lemma === tokens[0].normal;

const upperFirst = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/**
 * The parts of a sentence that can stand alone, the whole first: then each clause between
 * semicolons, dashes or ", and/but/so" ("I recently joined Switchpoint, and will be documenting
 * ..." -> "I recently joined Switchpoint."), a clause without the opening phrase before its first
 * comma ("In fact, investment has fallen" -> "Investment has fallen"), and a reason or time the
 * sentence asserts, said as its own clause ("Since we're building products for small cities,
 * ..." -> "We're building products for small cities."). An "if" or "when" clause is never said
 * alone: it asserts nothing. Each part keeps the brief's words in the brief's order.
 */
function standingParts(raw: string): Part[] {
  const out: Part[] = [];
  const add = (text: string, from: number, whole = false) => {
    const trimmed = text.trim().replace(/[,;]$/, '');
    if (!trimmed || out.some((p) => p.text === upperFirst(trimmed))) return;
    const said = upperFirst(trimmed);
    const tokens = tagText(said);
    // A part of a sentence needs its own subject: "led by global software investors" is none.
    // A question puts its subject after the verb ("Why do great ideas die in Slack channels?").
    if (
      standsAlone(said, tokens) &&
      (hasSubject(tokens) || (whole && (imperative(tokens) || said.endsWith('?'))))
    )
      out.push({ text: said, tokens, from, to: from + text.length });
  };
  add(raw, 0, true);
  let at = 0;
  for (const clause of raw.split(CLAUSE_BREAK)) {
    const from = raw.indexOf(clause, at);
    at = from + clause.length;
    const joined = JOINER.exec(clause);
    const body = joined ? clause.slice(joined[0].length) : clause;
    const start = from + (joined?.[0].length ?? 0);
    if (body !== raw) add(body, start);
    const comma = body.indexOf(', ');
    // After a condition ("If you voted for ..., I assume ...") the main clause holds only under
    // it: said alone it would claim what the brief did not.
    // A comma inside a date or a number ("On December 1, 1913, Henry Ford ...") is no clause's end.
    if (
      comma > 0 &&
      !CONDITION.test(body) &&
      /^\p{L}/u.test(body.slice(comma + 2)) &&
      !/\d$/.test(body.slice(0, comma))
    ) {
      add(body.slice(comma + 2), start + comma + 2);
      const opener = ASSERTED_OPENER.exec(body);
      if (opener) add(body.slice(opener[0].length, comma), start + opener[0].length);
    }
  }
  return out;
}

/**
 * Hooks from the brief: its sentences that stand alone (or their first clause), in the brief's
 * order, one per sentence. Nothing is written around them: a frame such as "I still think about
 * ..." or "Most people miss this: ..." would be a skeleton shared by every brief it fits, and a
 * figure put in one ("40% is the number behind ...") says what the brief did not.
 */
export function briefHooks(brief: string): BriefHook[] {
  const out: BriefHook[] = [];
  sentencesOf(brief).forEach((whole, source) => {
    for (const part of standingParts(whole)) {
      const s = ending(part.text);
      // A question-word clause with no question mark ("Why we moved ...") is a title, no hook.
      if (/^(?:why|how|what|when|where|who|which)\b/i.test(s) && !s.endsWith('?')) continue;
      out.push({
        hook: s,
        archetype: detectArchetype(s),
        source,
        span: [part.from, part.to],
        theme: subjectTheme(s, part.tokens),
        kind: sentenceKind(part.tokens),
        verbatim: part.text === whole || `${part.text}.` === whole,
        from: part.text,
      });
    }
  });
  return out;
}

/** Whether two hooks share words of one sentence: a plan uses at most one of them. */
export const overlaps = (a: BriefHook, b: BriefHook): boolean =>
  a.source === b.source && a.span[0] < b.span[1] && b.span[0] < a.span[1];

/**
 * What a hook is about: its first theme that is no preposition's object ("In fact, investment
 * has fallen" is about investment, not "fact"; "In the absence of clarity, uncertainty reigns"
 * about uncertainty), else its first theme.
 */
function subjectTheme(s: string, tokens: Tagged[]): Theme | null {
  const themes = topicsOf(s, 6).filter((t) => !isGenreTheme(t.text));
  const inPhrase = (t: Theme) => {
    const first = t.text.split(/\s+/)[0]!;
    const k = tokens.findIndex((x) => x.value === first);
    let j = k - 1;
    while (
      j >= 0 &&
      (tokens[j]!.pos === 'DET' ||
        tokens[j]!.pos === 'ADJ' ||
        tokens[j]!.pos === 'NUM' ||
        tokens[j]!.pos === 'PRON')
    )
      j--;
    return k > 0 && j >= 0 && tokens[j]!.pos === 'ADP';
  };
  return themes.find((t) => !inPhrase(t)) ?? themes[0] ?? null;
}

/**
 * What a sentence does, read from its tags: thanks or a greeting (no claim to back), advice
 * (it opens on a verb's base form: "Focus on one thing."), the writer's own doing ("We're
 * building products for small cities", "I decided ..."), an event told in the past ("Henry
 * Ford installed ...", "investment has fallen"), or a claim in the present ("Remote work is
 * powerful"). Only a claim is asked to be backed with an example.
 */
export type SentenceKind = 'social' | 'advice' | 'own' | 'event' | 'claim';

/** The few formulas that greet or thank: said to someone, they claim nothing. */
const SOCIAL =
  /^(?:thank|thanks|congratulations|congrats|hi|hello|welcome|happy|cheers|shoutout|shout-out)\b/i;
const FIRST_PERSON = new Set([
  'i',
  'we',
  'my',
  'our',
  "i'm",
  "we're",
  "i've",
  "we've",
  "i'd",
  "we'd",
  "i'll",
  "we'll",
]);
const PAST_AUX = /^(?:was|were|had|did|has|have|'ve|’ve)$/;

export function sentenceKind(tokens: Tagged[]): SentenceKind {
  const words = tokens.filter((t) => t.pos !== 'PUNCT');
  if (SOCIAL.test(words[0]?.normal ?? '') || words[0]?.pos === 'INTJ') return 'social';
  if (imperative(words)) return 'advice';
  const verb = words.findIndex(
    (t, k) =>
      (t.pos === 'VERB' || t.pos === 'AUX') && !/^(?:that|who|which)$/.test(words[k - 1]?.normal ?? ''),
  );
  const subject = verb < 0 ? words : words.slice(0, verb);
  if (subject.some((t) => FIRST_PERSON.has(t.normal))) return 'own';
  const v = words[verb];
  // A past tense is inflected and neither "-s" nor "-ing": "cut" reads as its base, "ran" does not.
  if (
    v &&
    (PAST_AUX.test(v.normal) ||
      (v.pos === 'VERB' && v.lemma !== v.normal && (/ed$/.test(v.normal) || !/(?:s|ing)$/.test(v.normal))))
  )
    return 'event';
  return 'claim';
}

import type { HookArchetype } from '../../domain/enums.ts';
import { detectArchetype } from '../rules/hook.ts';
import { isDescription, nounPhrases, quantitiesOf } from '../text/noun-phrases.ts';
import { splitSentences } from '../text/rewrite-sentences.ts';
import { type Tagged, tagText } from '../text/tagger.ts';
import { normalizePost } from '../text/text-features.ts';
import { capitalised, type Theme, themesOf } from '../text/themes.ts';
import { isGenreTheme } from './brief-clean.ts';
import { lowerFirst } from './first-letter.ts';

/**
 * Plan hooks made of the brief itself: its own sentences where one already reads as a hook
 * of an archetype (a first-person moment, a short claim, a question, a line against the usual
 * view), its claims turned into questions ("Late payments dropped after the switch." -> "Why
 * did late payments drop after the switch?"), what the author did told in the first person
 * ("I still think about how we cut our cloud bill by 40% ..."), and its figures ("40% is the number
 * behind our cloud bill."). So two plans share a hook's wording only where their briefs do,
 * and the hooks of one plan come from different sentences. Only sentences that stand alone
 * are used: whole clauses of 4-22 words, no quote, bracket, link or dash, none that opens on a
 * word pointing back ("This", "It", "But"), none that names a kind of post ("lessons").
 */

export interface BriefHook {
  hook: string;
  /** The archetype the hook was made as (the caller keeps only hooks the scorer detects so). */
  archetype: HookArchetype;
  /** The brief sentence it came from: one sentence makes one hook per plan. */
  source: number;
  /** What the hook is about, for its pillar and angle. */
  theme: Theme | null;
  /** True when the hook is the brief's sentence as written (its angle then says "this line"). */
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
const SUBJECT_WORDS = new Set(['DET', 'ADJ', 'NOUN', 'PROPN', 'NUM', 'ADP', 'PART']);

/** A sentence said after a colon or "that": lower-cased first, unless it opens on a name ("Microsoft"). */
const clauseOf = (s: string, tokens: Tagged[]) =>
  // A name is a name when a name or a verb follows ("Todd Schwartz", "Microsoft is"); a capital
  // before a noun only opens the sentence ("Late payments").
  tokens[0]?.pos === 'PROPN' && !/^(?:NOUN|ADJ)$/.test(tokens[1]?.pos ?? '') ? s : lowerFirst(s);
const ending = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);
const bare = (s: string) => s.replace(/[.!?]+$/, '');

/** A sentence that can stand alone as a hook: a whole clause, short, with nothing pointing elsewhere. */
function standsAlone(s: string, tokens: Tagged[]): boolean {
  const words = s.split(/\s+/);
  if (words.length < 4 || words.length > MAX_WORDS || s.length > MAX_CHARS) return false;
  if (!/^[\p{Lu}\d$€£]/u.test(s) || UNSAFE.test(s) || PICTOGRAPH.test(s) || POINTS_BACK.test(s)) return false;
  if (s.split(/\s+/).some((w) => isGenreTheme(w.replace(/[^\p{L}]/gu, '')))) return false;
  if (new Set(tokens.map((t) => t.sentence)).size !== 1) return false;
  if (tokens.some((t) => t.pos === 'PRON' && ELSEWHERE.has(t.normal))) return false;
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

/** A past-tense verb: "dropped" (lemma "drop"), "grew" ("grow"); present forms and "-ing" are not. */
const isPast = (t: Tagged) =>
  t.pos === 'VERB' && t.lemma !== t.normal && !/(?:s|ing)$/.test(t.normal) && /^[a-z]+$/.test(t.lemma);

/**
 * A claim told in the past, asked: "We raised prices twice." -> "How did we raise prices
 * twice?", "Late payments dropped after the switch." -> "Why did late payments drop after the
 * switch?" Only a plain subject (a noun phrase or "we") right before one past verb qualifies.
 */
function asked(s: string, tokens: Tagged[]): string | null {
  const v = tokens.findIndex((t) => t.pos === 'VERB' || t.pos === 'AUX');
  if (v < 1 || !isPast(tokens[v]!)) return null;
  const subject = tokens.slice(0, v);
  const we = subject.length === 1 && subject[0]!.normal === 'we';
  if (
    !we &&
    !(subject.every((t) => SUBJECT_WORDS.has(t.pos)) && /^(?:NOUN|PROPN)$/.test(subject.at(-1)!.pos))
  )
    return null;
  // Another verb later ("dropped and then rose") would be left in the past: keep to one verb.
  if (tokens.slice(v + 1).some((t) => t.pos === 'VERB' || t.pos === 'AUX')) return null;
  const words = s.split(/\s+/);
  const verbAt = words.findIndex((w) => w.toLowerCase().replace(/[^\p{L}]/gu, '') === tokens[v]!.normal);
  if (verbAt < 1) return null;
  const before = clauseOf(words.slice(0, verbAt).join(' '), tokens);
  const after = bare(words.slice(verbAt + 1).join(' '));
  return `${we ? 'How' : 'Why'} did ${before} ${tokens[v]!.lemma}${after ? ` ${after}` : ''}?`;
}

/** Verbs whose past is their present form: "We cut our cloud bill" tells what was done. */
const SAME_PAST = new Set(['cut', 'put', 'set', 'hit', 'quit', 'shut', 'spread', 'let', 'split']);

/** What "we" did, as the author tells it: "how we cut our cloud bill ...", "why we moved ...". */
function toldClause(s: string, tokens: Tagged[]): string | null {
  const text = bare(s);
  if (/^why we\b/i.test(text) && text.length <= 110) return lowerFirst(text);
  // "We cut ...", "Our team rebuilt ...": the first verb is what was done, not "is" or "have".
  const first = tokens[0]?.normal;
  const verb = tokens.find((t) => t.pos === 'VERB' || t.pos === 'AUX');
  if (
    (first === 'we' || first === 'our') &&
    text.length <= 110 &&
    verb &&
    (isPast(verb) || SAME_PAST.has(verb.normal))
  )
    return `how ${lowerFirst(text)}`;
  return null;
}

/**
 * Ways to tell what "we" did in the first person; the brief picks one, so plans differ. No two
 * frames here or in plan-hooks.ts open on the same three words.
 */
const TOLD = [
  (c: string) => `I still think about ${c}.`,
  (c: string) => `I want to tell you ${c}.`,
  (c: string) => `I keep thinking about ${c}.`,
  (c: string) => `I can tell you ${c}.`,
  (c: string) => `I often explain ${c}.`,
  (c: string) => `I like to remember ${c}.`,
];
/** A figure as a hook (one figure: link grammar, like readers, trips on "40% and 33% are"). */
const FIGURE = [
  (f: string, t: Theme) => `${f} is the number behind ${t.phrase}.`,
  (f: string, t: Theme) => `${f}: the number behind ${t.phrase}.`,
];
/** A claim of the brief said against the usual view. */
const AGAINST = [
  (c: string) => `Most people miss this: ${c}`,
  (c: string) => `The truth is simple: ${c}`,
  (c: string) => `Nobody expects it, but ${c}`,
  (c: string) => `Most people get this backwards: ${c}`,
  (c: string) => `Here is the hard truth: ${c}`,
  (c: string) => `Here is an unpopular opinion: ${c}`,
  (c: string) => `Forget the usual line: ${c}`,
];
/** A claim of the brief as the author's own moment. */
const OWNED = [
  (c: string) => `I keep coming back to one thing: ${c}`,
  (c: string) => `I only saw this late: ${c}`,
  (c: string) => `I have been thinking about one fact: ${c}`,
  (c: string) => `I will put it simply: ${c}`,
  (c: string) => `I wrote this down for myself: ${c}`,
  (c: string) => `I noticed something worth sharing: ${c}`,
  (c: string) => `I kept this note for a while: ${c}`,
];
/** A claim of the brief put to the reader. */
const PUT = [
  (c: string) => `Did you know that ${c}?`,
  (c: string) => `Would you have guessed that ${c}?`,
  (c: string) => `Have you noticed that ${c}?`,
  (c: string) => `Can you believe that ${c}?`,
];

/**
 * The part of a sentence that can stand alone: the whole when it can, else its first clause
 * ("I recently joined Switchpoint, and will be documenting ..." -> "I recently joined Switchpoint.").
 */
function standing(raw: string): { text: string; tokens: Tagged[] } | null {
  const whole = tagText(raw);
  if (standsAlone(raw, whole)) return { text: raw, tokens: whole };
  const first = raw.split(/,\s+(?:and|but|so|because)\s+|;\s+/)[0]!;
  if (first === raw) return null;
  const tokens = tagText(first);
  return standsAlone(first, tokens) ? { text: first, tokens } : null;
}

/** Hooks from the brief, most its own first: its sentences, then its claims reworked, then its figures. */
export function briefHooks(brief: string, seed: number): BriefHook[] {
  const sentences = sentencesOf(brief);
  const out: BriefHook[] = [];
  const themeOf = (s: string) => themesOf(s, 1).find((t) => !isGenreTheme(t.text)) ?? null;
  const pick = <T>(list: T[], k = 0) => list[(seed + k) % list.length]!;
  sentences.forEach((whole, source) => {
    const part = standing(whole);
    if (!part) return;
    const { text: raw, tokens } = part;
    const s = ending(raw);
    const theme = themeOf(s);
    const archetype = detectArchetype(s);
    const add = (hook: string, as: HookArchetype, verbatim = false) =>
      out.push({ hook, archetype: as, source, theme, verbatim, from: raw });
    // A question-word clause with no question mark ("Why we moved ...") is a title, no hook.
    const title = /^(?:why|how|what|when|where|who|which)\b/i.test(s) && !s.endsWith('?');
    if (archetype !== 'other' && !title) add(s, archetype, true);
    const question = asked(s, tokens);
    if (question) add(question, 'question');
    const told = toldClause(s, tokens);
    if (told) add(pick(TOLD, source)(told), 'story');
    // A short claim, not an order ("Take this job ...") or a description with no main verb
    // ("A small bakery in Lisbon that ..."), reworked into the other archetypes.
    if (archetype !== 'statement' || tokens[0]?.pos === 'VERB' || s.split(/\s+/).length > 14) return;
    if (title) return;
    if (isDescription(raw)) return;
    const claim = clauseOf(bare(s), tokens);
    add(pick(OWNED, source)(`${claim}.`), 'story');
    if (/^(?:I|We|My|Our)\b/.test(s)) return;
    add(pick(AGAINST, source)(`${claim}.`), 'contrarian');
    add(pick(PUT, source)(claim), 'question');
  });
  // Figures in digits lead a number hook, about what its clause names first ("This year
  // homelessness rose by 18%": homelessness), a clause with one figure only.
  sentences.forEach((s, source) => {
    for (const clause of s.split(/,\s*(?:and|but|while|with)?\s*|;\s*|\s+and\s+(?=the\b)/)) {
      const figures = quantitiesOf(clause).filter((q) => /^[$€£]?\d/.test(q));
      if (figures.length !== 1 || UNSAFE_FIGURE.test(clause)) continue;
      const f = figures[0]!;
      const theme = subjectOf(clause, f);
      if (!theme) continue;
      // "12 seats is the number" would not agree: a counted figure takes the colon.
      const make = /\d\s+\p{L}/u.test(f) ? FIGURE[1]! : pick(FIGURE, source);
      out.push({
        hook: capitalised(make(f, theme)),
        archetype: 'pure-number',
        source,
        theme,
        verbatim: false,
        from: clause,
      });
    }
  });
  return out.filter((h) => h.hook.length <= MAX_CHARS && h.hook.split(/\s+/).length <= 25);
}

/** Heads that say how much, not of what ("the number of homeless children"). */
const MEASURE = /^(?:number|share|rate|amount|percent|percentage|total|majority|half|part|lot|figure)$/;
const UNSAFE_FIGURE = /["“”‘()[\]{}@#]|https?:|www\./u;

/**
 * The theme a clause names first, before its figure: its subject, as near as a tagger gets. A
 * clause whose first noun phrase is no theme ("This year homelessness ...": a lone word after
 * a date) gives none, rather than a later phrase the figure is not about.
 */
function subjectOf(clause: string, figure: string): Theme | null {
  const at = clause.toLowerCase().indexOf(figure.toLowerCase());
  const first = nounPhrases(clause).find((p) => !MEASURE.test(p.words.at(-1)!.normal));
  if (!first) return null;
  const head = first.words.at(-1)!.normal;
  const theme = themesOf(clause, 6).find((t) => t.text.toLowerCase().split(' ').at(-1) === head);
  if (!theme || isGenreTheme(theme.text)) return null;
  const where = clause.toLowerCase().indexOf(theme.text.toLowerCase());
  return where >= 0 && where < at ? theme : null;
}

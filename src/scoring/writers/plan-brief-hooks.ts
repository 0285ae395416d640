import type { HookArchetype } from '../../domain/enums.ts';
import { detectArchetype } from '../rules/hook.ts';
import { splitSentences } from '../text/rewrite-sentences.ts';
import { type Tagged, tagText } from '../text/tagger.ts';
import { normalizePost } from '../text/text-features.ts';
import { type Theme, themesOf } from '../text/themes.ts';
import { isGenreTheme } from './brief-clean.ts';

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
  /** The brief sentence it came from: one sentence makes one hook per plan. */
  source: number;
  /** What the hook is about, for its pillar and angle. */
  theme: Theme | null;
  /** True when the hook is the brief's whole sentence (else its first clause). */
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

const ending = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

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

/**
 * Hooks from the brief: its sentences that stand alone (or their first clause), in the brief's
 * order, one per sentence. Nothing is written around them: a frame such as "I still think about
 * ..." or "Most people miss this: ..." would be a skeleton shared by every brief it fits, and a
 * figure put in one ("40% is the number behind ...") says what the brief did not.
 */
export function briefHooks(brief: string): BriefHook[] {
  const out: BriefHook[] = [];
  const themeOf = (s: string) => themesOf(s, 1).find((t) => !isGenreTheme(t.text)) ?? null;
  sentencesOf(brief).forEach((whole, source) => {
    const part = standing(whole);
    if (!part) return;
    const s = ending(part.text);
    // A question-word clause with no question mark ("Why we moved ...") is a title, no hook.
    if (/^(?:why|how|what|when|where|who|which)\b/i.test(s) && !s.endsWith('?')) return;
    out.push({
      hook: s,
      archetype: detectArchetype(s),
      source,
      theme: themeOf(s),
      verbatim: part.text === whole || `${part.text}.` === whole,
      from: part.text,
    });
  });
  return out;
}

import type { HookArchetype } from '../../domain/enums.ts';
import { PERSONAL_NEWS } from '../text/lexicon.ts';
import { hasPhraseIn, tokenize } from '../text/phrases.ts';
import { splitPieces } from '../text/text-scan.ts';
import type { LookedUpWords } from '../text/word-facts.ts';
import { newsInFirstPerson, setsAgainstAView, tellsEvent } from './claims.ts';

/**
 * Detects the hook archetype from the first sentence of the first line. "story" and "contrarian"
 * are claims about the text, so they are the claim checks' (claims.ts): a story opening tells an
 * event in the first person or the writer's own news, a contrarian one sets itself against a view.
 * An opening that only starts with "I" or only says "not" is a statement (or "other").
 */

const PURE_NUMBER = /^[^\p{L}\p{N}]{0,3}(?:[$€£]\s?)?\d/u;
const QUESTION_WORD =
  /^(?:what|why|how|when|where|who|which|is|are|do|does|did|can|could|should|would|will|have|has|ever)\b/i;

export const detectArchetype = (hook: string): HookArchetype => archetypeOf(hook, undefined);

/**
 * `detectArchetype` with the hook's tokens, `tokenize(hook.trim())`, when the caller has them
 * (text-features.ts `hookTokens`), and a lookup whose first ids are theirs (`hookWords`).
 */
export function archetypeOf(
  hook: string,
  hookTokens: string[] | undefined,
  hookWords?: LookedUpWords,
): HookArchetype {
  const h = hook.trim();
  if (!h) return 'other';
  if (PURE_NUMBER.test(h)) return 'pure-number';
  if (h.endsWith('?') || (QUESTION_WORD.test(h) && h.includes('?'))) return 'question';
  const tokens = hookTokens ?? tokenize(h);
  const words = hookTokens === undefined ? undefined : hookWords;
  if (setsAgainstAView(h)) return 'contrarian';
  if (
    tellsEvent(h) ||
    (hasPhraseIn('personalNews', tokens, undefined, words) && newsInFirstPerson(h, PERSONAL_NEWS))
  )
    return 'story';
  const count = splitPieces(h);
  // A statement is a short declarative claim; a long or fragmentary opener is "other".
  if (count >= 3 && count <= 25 && endsAsStatement(h)) return 'statement';
  return 'other';
}

const STATEMENT_END = /[.!…:]$|\p{L}$/uy;

/**
 * `/[.!…:]$|\p{L}$/u.test(h)`, tried only where a match can start: at the last code point (the
 * unanchored pattern tried every position of the opening).
 */
export function endsAsStatement(h: string): boolean {
  const n = h.length;
  const low = h.charCodeAt(n - 1);
  const high = n >= 2 ? h.charCodeAt(n - 2) : 0;
  const pair = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff;
  STATEMENT_END.lastIndex = pair ? n - 2 : n - 1;
  return STATEMENT_END.test(h);
}

/**
 * Benchmark notes per archetype. Figures are medians of engagement normalised by followers
 * ((reactions + comments) / followers) per detected archetype on the 786-post 2025-26
 * calibration set, relative to that set's median (`npm run eval:scoring -- --archetypes`,
 * 2026-12-03, with the archetype the claim checks decide); see docs/scoring.md for the table.
 */
export const ARCHETYPE_NOTES: Record<HookArchetype, string> = {
  story:
    'Story hooks (a first-person moment, news or thanks) did best in 786 real posts measured: their median engagement per follower was 2.3x the typical post’s.',
  statement:
    'Plain statement hooks did as well as the typical post in 786 real posts measured (0.99x its engagement per follower); a concrete claim beats a general one.',
  'pure-number':
    'Hooks that lead with a number earned 0.84x the typical post’s engagement per follower in 786 real posts measured; the number must be the news, not decoration.',
  contrarian:
    'Contrarian hooks earned 0.11x the typical post’s engagement per follower in 786 real posts measured (only 16 of them); they work only when the post backs the claim with a specific case.',
  other:
    'Openings with no clear hook (a fragment, a tag or a long wind-up) earned 0.86x the typical post’s engagement per follower in 786 real posts measured.',
  question:
    'Question hooks trailed at 0.45x the typical post’s engagement per follower in 786 real posts measured: readers scroll past questions they were not asking.',
};

/**
 * Points the hook dimension gets from its archetype, in the order of the medians above, and
 * negative below the set's median (a hook rule's sign is its impact): number hooks and "other"
 * (0.84x, 0.86x) are level at -2, and contrarian hooks (16 posts) are held at the question
 * hooks' points rather than set lower on so few.
 */
export const ARCHETYPE_POINTS: Record<HookArchetype, number> = {
  story: 10,
  statement: 4,
  'pure-number': -2,
  other: -2,
  contrarian: -8,
  question: -8,
};

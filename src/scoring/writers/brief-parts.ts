import type { HookArchetype } from '../../domain/enums.ts';
import { detectArchetype } from '../rules/hook.ts';
import { isDescription } from '../text/noun-phrases.ts';
import { hasPhrase } from '../text/phrases.ts';
import { splitSentences } from '../text/rewrite-sentences.ts';
import { normalizePost } from '../text/text-features.ts';
import { isNounPhrases, labelTheme, type Theme, themesOf } from '../text/themes.ts';
import type { BrandContext } from '../types.ts';
import { LABEL_MAX_WORDS } from './brief-clean.ts';
import { lowerFirst, upperFirst } from './first-letter.ts';
import { opensWithNews } from './news-wording.ts';

/*
 * The brief as offline generation reads it (partsOf: its topic, theme, details and how its first
 * sentence reads), and the small text helpers the drafts share (generate-offline.ts, draft-blocks.ts).
 */

/** Lower-cased words only, space-joined and padded, to find one sentence inside another. */
export const squashed = (s: string) =>
  ` ${s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}%$]+/gu, ' ')
    .trim()} `;
export const stripEnd = (s: string) => s.replace(/[.!?…:;,]+$/u, '').trim();
/** A story hook can carry the first sentence whole while it stays before the fold. */
export const HOOK_MAX_CHARS = 150;

export function hashtag(theme: string): string | null {
  const words = theme.match(/[\p{L}\p{N}]+/gu) ?? [];
  if (!words.length) return null;
  return `#${words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}`;
}

export interface Parts {
  /** The brief's first sentence, end punctuation stripped. */
  topic: string;
  /** How the topic reads: a question-word clause, a bare noun phrase, or a full sentence. */
  kind: 'clause' | 'phrase' | 'sentence';
  /** True when the topic is told in the first person ("We cut ...", "I ran ..."). */
  firstPerson: boolean;
  /** The main theme, named as the brief names it ("our cloud bill", "late payments"). */
  theme: Theme;
  details: string[];
  /**
   * The archetype the brief's own first sentence already opens with, when it is short enough
   * to be the hook (null otherwise): that sentence then opens the post, with no template line
   * before it that would say the same thing twice.
   */
  opens: HookArchetype | null;
  /** That first sentence as written, end punctuation kept. */
  opening: string;
  /** The first sentence introduces the rest as a list ("Five lessons from ...:"). */
  heading: boolean;
  /** How the first sentence ends ("?" for a question, "" when its closing quote ends it, else "."). */
  end: string;
  /** Whether this candidate says the topic sentence (a tighter take may leave it out). */
  showTopic: boolean;
  /**
   * The brief opens with news, thanks or congratulations ("Thrilled to share ...",
   * "Congratulations to ..."): it is told, never argued, and asks the reader nothing.
   */
  news: boolean;
}

/**
 * The brief's sentences as a post says them: clauses joined by a semicolon become sentences,
 * and a description with no main verb ("A small bakery in Lisbon that teaches ...") is said
 * as one ("We are a small bakery ..." when the brief speaks as "we", else "Meet a ...").
 */
function sentencesOf(brief: string): string[] {
  const we = /\b(?:we|our|us)\b/i.test(brief);
  return (
    normalizePost(brief)
      .split(/\n+/)
      .flatMap((line) => splitSentences(line))
      .flatMap((s) => s.split(/;\s+/).map((c, i, all) => (i < all.length - 1 ? `${stripEnd(c)}.` : c)))
      .map((s) => upperFirst(s.trim()))
      // A greeting ("Hello everyone!") is no content, and as a theme it would open with a stock line.
      .filter(
        (s, _i, all) => all.length === 1 || s.split(/\s+/).length > 4 || !hasPhrase('genericOpeners', s),
      )
      .map((s) => (isDescription(s) ? `${we ? 'We are' : 'Meet'} ${lowerFirst(s)}` : s))
  );
}

export function partsOf(brief: string, brand: BrandContext | null): Parts {
  const sentences = sentencesOf(brief);
  const topic = stripEnd(sentences[0] ?? brief);
  // A label reads as a topic ("Q3 content push"); a long one reads better said as it was written.
  // "When we launched, nobody came" is a whole sentence: its main clause follows the comma.
  const kind =
    /^(?:why|how|what|when|where|who)\b/i.test(topic) && !/^(?:when|where|while)\b[^,]*,\s*\S/i.test(topic)
      ? 'clause'
      : topic.split(/\s+/).length <= LABEL_MAX_WORDS && isNounPhrases(topic)
        ? 'phrase'
        : 'sentence';
  // A first line that already says a later sentence (a plan item's hook put before the plan's
  // brief: "I still think about how we moved ..." then "We moved ...") is not said twice.
  const firstSays = squashed(sentences[0] ?? '');
  const details = sentences.slice(1).filter((s) => !firstSays.includes(squashed(s)));
  if (brand?.description) details.push(brand.description.trim().replace(/([^.!?])$/u, '$1.'));
  const said = (sentences[0] ?? brief).trim();
  const opening = /[.!?…]["'’”)]*$/u.test(said) ? said : `${said}.`;
  // A list of topics ("pricing, hiring and culture") is the theme as a whole, as written.
  const listed = /,| and /.test(topic);
  const label = labelTheme(topic);
  // "Thrilled to share", "Congratulations to" give news; "My first marathon" tells a story.
  const news = opensWithNews(sentences.join('\n'));
  // "Congrats Eagles fans" is news, not a label: its theme is a noun phrase of it ("Eagles fans").
  const theme =
    kind === 'phrase' && !news
      ? { ...label, plural: listed || label.plural }
      : ((news ? themesOf(brief).find((t) => !hasPhrase('personalNews', t.text)) : themesOf(brief, 1)[0]) ??
        label);
  // "We cut ..." tells what happened; "We are a bakery ..." only says who is speaking.
  const firstPerson =
    kind === 'sentence' &&
    /^(?:I|We)\b/.test(topic) &&
    !/^(?:I am|I'm|We are|We're) an?\b/i.test(topic) &&
    !/[:;]/.test(topic);
  const opens = kind !== 'phrase' && opening.length <= HOOK_MAX_CHARS ? detectArchetype(opening) : null;
  const heading = /:$/.test(sentences[0] ?? '') && details.length >= 2;
  // A sentence that already ends inside its closing quote ("... over again.”") takes no more.
  const first = (sentences[0] ?? '').trim();
  const end = /[.!?…]["'’”)]+$/u.test(first) ? '' : (/[?!]$/.exec(first)?.[0] ?? '.');
  return { topic, kind, firstPerson, theme, details, opens, opening, heading, end, showTopic: true, news };
}

import type { Tagged } from './tagger.ts';

/**
 * Whether a theme said with no determiner of its own ("Q3 hiring push", "remote work") needs
 * "the" in a sentence. wink-nlp tags parts of speech but not countability, so only what the tags
 * and the words decide is decided:
 * - a name, a plural, a known mass noun or an activity ("Stripe", "OKRs", "feedback", "hiring",
 *   "customer onboarding") takes none: `none`;
 * - a common noun narrowed to one instance by a quarter, a year or a count ("Q3 hiring push",
 *   "FY25 plan", "12-week onboarding program") takes "the", whether or not the noun counts
 *   ("the Q3 revenue" reads as well as "the Q3 plan"): `the`;
 * - any other singular common noun ("product launch", "team culture") could need "the" or not:
 *   `unknown`, and a template names it where no article is needed ("One topic: product launch").
 */
export type ThemeArticle = 'none' | 'the' | 'unknown';

/** A quarter, half, fiscal year, calendar year or count that picks out one instance. */
const SPECIFIER = /^(?:[QH][1-4]|FY\d{2}(?:\d{2})?|(?:19|20)\d{2}|\d+(?:-\p{L}+)+)$/u;

/**
 * Nouns with no common countable use in posts: "remote work", "customer feedback", never "a
 * feedback". Kept short on purpose: a word that is sometimes countable ("culture", "strategy")
 * stays `unknown`, which costs a rephrased template, never a wrong article.
 */
const MASS = new Set([
  'advice',
  'analytics',
  'burnout',
  'cash',
  'churn',
  'compliance',
  'data',
  'education',
  'equipment',
  'feedback',
  'governance',
  'growth',
  'hardware',
  'health',
  'healthcare',
  'information',
  'knowledge',
  'leadership',
  'money',
  'privacy',
  'productivity',
  'progress',
  'research',
  'retention',
  'revenue',
  'safety',
  'security',
  'software',
  'sustainability',
  'traffic',
  'wellbeing',
  'wellness',
  'work',
]);

/** "-ing" nouns that name a thing, not an activity: "the team meeting", never "team meeting". */
const COUNTABLE_ING = new Set([
  'beginning',
  'building',
  'ceiling',
  'ending',
  'evening',
  'feeling',
  'finding',
  'listing',
  'meeting',
  'morning',
  'offering',
  'opening',
  'painting',
  'posting',
  'recording',
  'saying',
  'setting',
  'sibling',
  'spring',
  'string',
  'thing',
  'wedding',
]);

/**
 * The article a theme with no determiner takes: `head` is its head noun, `before` the words
 * written before it ("Q3", "hiring"; a year the noun phrase left out, "2024 budget", counts when
 * the caller passes it), `plural` and `proper` the theme's own.
 */
export function themeArticle(
  head: Tagged | undefined,
  before: readonly string[],
  plural: boolean,
  proper: boolean,
): ThemeArticle {
  if (!head || plural || proper || head.pos !== 'NOUN') return 'none';
  if (MASS.has(head.normal)) return 'none';
  if (/\p{L}{3}ing$/u.test(head.normal) && !COUNTABLE_ING.has(head.normal)) return 'none';
  if (before.some((w) => SPECIFIER.test(w))) return 'the';
  return 'unknown';
}

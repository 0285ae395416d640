import type { HookArchetype, MediaKind } from '../../domain/enums.ts';
import { capitalised, type Theme } from '../text/themes.ts';

/**
 * Angles for offline plan items, and the hooks where the brief gives no sentence for a slot.
 * A hook is never a template filled with a theme ("6 small choices shape Berlin.", "Burnout
 * prevention starts with one good habit."): that skeleton came back on brief after brief and
 * its counts were invented. Where the brief's sentences run out, the hook is a pillar said as
 * the brief (or the brand) names it, a headline for the writer's own line; a brief that is only
 * a label gets its topic and a marked blank. An angle says what to write under the hook and
 * names only the brief's own figures (never the count of posts asked for).
 */

const perPage = (format: MediaKind) =>
  format === 'document' ? ', one per page' : format === 'multi-image' ? ', one per image' : '';
const replies = (format: MediaKind) =>
  format === 'poll' ? 'vote and say why in a comment' : 'reply with theirs';
const useFigures = (figures: string[]) =>
  figures.length
    ? ` Use the real figures: ${figures
        .slice(0, 3)
        .join(figures.length > 2 ? ', ' : ' and ')
        .replace(/, ([^,]+)$/, ' and $1')}.`
    : '';

/**
 * Angles for hooks made of the brief (plan-brief-hooks.ts): the hook already says the brief's
 * claim, so the angle says what to write under it, in its own words about the theme.
 */
export function briefAngle(
  archetype: HookArchetype,
  verbatim: boolean,
  t: Theme,
  format: MediaKind,
  figures: string[],
): string {
  switch (archetype) {
    case 'story':
      return verbatim
        ? `Tell the moment behind this line: what happened, what you did about ${t.phrase}, and what you do now.${useFigures(figures)}`
        : `Tell it in the first person: where ${t.phrase} stood before, what you changed, and what came of it.${useFigures(figures)}`;
    case 'pure-number':
      return `Say what the figure measures, how you got it, and what it changed for ${t.phrase}${perPage(format)}.`;
    case 'contrarian':
      return `Say what most people believe about ${t.phrase}, then make the case for this line with one example.`;
    case 'question':
      return `Give your own answer about ${t.phrase} in a few lines, then ask readers to ${replies(format)}.`;
    default:
      return `Back this claim about ${t.phrase} with one example a reader can check.${useFigures(figures)}`;
  }
}

/**
 * A pillar as a headline hook, in the words the brief (or brand) wrote it with, its own
 * determiner kept ("Our cloud bill.", "A small bakery."): no word the brief did not write.
 */
export function headline(t: Theme, source: string): string {
  const name = t.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const said = new RegExp(
    `(?:\\b(?:a|an|the|our|my|your|their|his|her|its|\\p{L}+['’]s)\\s+)?${name}`,
    'iu',
  ).exec(source);
  return `${capitalised(said ? said[0] : t.text)}.`;
}

/** What to write under a headline hook: the writer's own line on the theme, with the brief's figures. */
export const headlineAngle = (t: Theme, figures: string[]): string =>
  `Open on your own line about ${t.phrase}, then show it with something that happened.${useFigures(figures)}`;

/**
 * Hooks of a brief that is only a label ("Q3 content push"), one per content pillar: the topic
 * and a marked blank for the line the brief does not give, and what the blank asks for.
 */
export const BLANK_HOOKS: Record<string, string> = {
  'Lessons learned': '[a lesson you learned, in one line]',
  'Behind the scenes': '[a moment behind the scenes, in one line]',
  'Results so far': '[a result so far, with its number]',
  'Industry view': '[your view of the field, in one line]',
};
const BLANK_ASKS: Record<string, string> = {
  'Lessons learned': 'a lesson you learned',
  'Behind the scenes': 'a moment behind the scenes',
  'Results so far': 'a result you can measure',
  'Industry view': 'your own view of the field',
};

export const blankAngle = (t: Theme, pillar: string): string =>
  `Fill the blank with ${BLANK_ASKS[pillar] ?? 'a line of your own'} about ${t.phrase}, then tell what happened.`;

/**
 * Marked blanks for a pillar once the brief's sentences and headlines are spent (a long plan of a
 * short brief): the pillar as the brief names it, then what the writer's own line should hold.
 */
export const PILLAR_BLANKS = [
  '[a moment you can describe in one line]',
  '[a result, with its number]',
  '[what you would do differently]',
  '[a question you would ask your readers]',
  '[a mistake you made, and what it taught you]',
  '[someone who helped, and how]',
  '[a measure you watch, and why]',
  '[the first step you would tell a newcomer]',
  '[something you no longer believe]',
  '[a habit or tool you rely on]',
];

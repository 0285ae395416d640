import type { HookArchetype, MediaKind } from '../../domain/enums.ts';
import type { Theme } from '../text/themes.ts';
import type { SentenceKind } from './plan-brief-hooks.ts';

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
/** How an angle names the brief's figures it should use (turning into drafts reads it back). */
export const USE_FIGURES = 'Use the real figures: ';
const useFigures = (figures: string[]) =>
  figures.length
    ? ` ${USE_FIGURES}${figures
        .slice(0, 3)
        .join(figures.length > 2 ? ', ' : ' and ')
        .replace(/, ([^,]+)$/, ' and $1')}.`
    : '';

/** What to write under a statement, by what the sentence does (plan-brief-hooks.ts sentenceKind). */
const KIND_ANGLES: Record<SentenceKind, (t: Theme) => string> = {
  claim: (t) => `Back this claim about ${t.phrase} with one example a reader can check.`,
  event: (t) => `Say what happened with ${t.phrase}, how you know, and what it means for your readers.`,
  own: (t) =>
    `Tell what is behind this line about ${t.phrase}: how it came about and what it means for you now.`,
  advice: (t) => `Give the reason behind this advice on ${t.phrase}, then one step a reader can take today.`,
  social: (t) => `Say in your own words what ${t.phrase} did and why it matters to you.`,
};

/**
 * Angles for hooks made of the brief (plan-brief-hooks.ts): the hook already says the brief's
 * claim, so the angle says what to write under it, in its own words about the theme.
 */
export function briefAngle(
  archetype: HookArchetype,
  kind: SentenceKind,
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
      return `${KIND_ANGLES[kind](t)}${useFigures(figures)}`;
  }
}

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

export const blankAngle = (t: Theme, pillar: string, figures: string[] = []): string =>
  `Fill the blank with ${BLANK_ASKS[pillar] ?? 'a line of your own'} about ${t.phrase}, then tell what happened.${useFigures(figures)}`;

/**
 * Marked blanks for a pillar once the brief's sentences are spent (a long plan of a short
 * brief): the pillar as the brief names it, then what the writer's own line should hold, and
 * what the angle asks for after it. Each reads as a sentence once filled: link grammar parses
 * "Small cities: a moment you can describe in one line." (plan-hooks-measured.test.ts).
 */
const PILLAR_BLANKS: { blank: string; angle: (t: string) => string }[] = [
  {
    blank: 'a moment you can describe in one line',
    angle: (t) => `Write one moment with ${t} in the blank, then tell what happened.`,
  },
  {
    blank: 'a result, with its number',
    angle: (t) =>
      `Write one result of your work on ${t} in the blank, with its number, then say how you got it.`,
  },
  {
    blank: 'what you would do differently',
    angle: (t) =>
      `Write what you would do differently about ${t} in the blank, then say what it would change.`,
  },
  {
    blank: 'a question for your readers',
    angle: (t) =>
      `Write the question about ${t} you would ask your readers in the blank, then give your own answer first.`,
  },
  {
    blank: 'a mistake you made, in one line',
    angle: (t) => `Write a mistake you made with ${t} in the blank, then say what it taught you.`,
  },
  {
    blank: 'someone who helped you',
    angle: (t) => `Write who helped you with ${t} in the blank, then say how they helped.`,
  },
  {
    blank: 'a measure you watch, and why',
    angle: (t) => `Write a measure of ${t} you watch in the blank, then say why you watch it.`,
  },
  {
    blank: 'the first step for a newcomer',
    angle: (t) =>
      `Write the first step on ${t} you would give a newcomer in the blank, then say why it comes first.`,
  },
  {
    blank: 'something you no longer believe',
    angle: (t) =>
      `Write something about ${t} you no longer believe in the blank, then say what changed your mind.`,
  },
  {
    blank: 'a tool you rely on',
    angle: (t) => `Write a tool you rely on for ${t} in the blank, then show how you use it.`,
  },
];
/** The blank that suits a slot's kind of hook: a story asks for a moment, a question for a question. */
const BLANK_FOR: Partial<Record<HookArchetype, number>> = {
  story: 0,
  'pure-number': 1,
  statement: 2,
  question: 3,
  contrarian: 8,
};

export interface PillarBlank {
  /** The hook's marked blank, brackets and all. */
  hook: string;
  /** What to write, for the angle: "Fill the blank with ..., then ...". */
  angle: (t: Theme, figures: string[]) => string;
}

/**
 * The blank for a slot: the one its hook kind suits, else the next the plan has not used. One
 * asking for a result is skipped where the brief gives the pillar's figures: a blank never
 * stands where the brief has the fact (the angle asks for those figures instead).
 */
export function pillarBlank(
  archetype: HookArchetype,
  hasFigures: boolean,
  inPlan: (blank: string) => boolean,
  onPillar: (blank: string) => boolean,
): PillarBlank {
  const start = BLANK_FOR[archetype] ?? 0;
  const order = PILLAR_BLANKS.map((_, k) => PILLAR_BLANKS[(start + k) % PILLAR_BLANKS.length]!).filter(
    (b) => !(hasFigures && b.blank.includes('number')),
  );
  const pick =
    order.find((b) => !inPlan(`[${b.blank}]`)) ?? order.find((b) => !onPillar(`[${b.blank}]`)) ?? order[0]!;
  return {
    hook: `[${pick.blank}]`,
    angle: (t, figures) => `${pick.angle(t.phrase)}${useFigures(figures)}`,
  };
}

import type { HookArchetype, MediaKind } from '../domain/enums.ts';
import { adviceAbout, agree, capitalised, type Theme } from './themes.ts';

/**
 * Hooks and their angles for offline plans, several per archetype. Each reads as a finished
 * line around any theme: the theme is named as the brief named it (`phrase`: "our cloud bill",
 * "the small bakery", "sourdough classes"), a line to the reader says "your" (`reader`), and
 * verbs agree with plurals. No line assumes a trade (no roadmaps, teams or customers), and an
 * angle says what to write in its own words: it never quotes the brief.
 */

export interface PlanSlot {
  hook: (t: Theme) => string;
  /** `figures` are the brief's quantities ("40%", "three months"), for the angles that tell a result. */
  angle: (t: Theme, format: MediaKind, figures: string[]) => string;
}

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
const they = (t: Theme) => agree(t, 'it', 'they');

export const SLOTS: Record<HookArchetype, PlanSlot[]> = {
  story: [
    {
      hook: (t) => `My biggest lesson about ${t.phrase} came late.`,
      angle: (t, _f, figures) =>
        `Tell the lesson about ${t.phrase} you learned the slow way: what you believed at first, the moment it changed, and what you do now.${useFigures(figures)}`,
    },
    {
      hook: (t) => `I changed my mind about ${t.phrase}.`,
      angle: (t, _f, figures) =>
        `Say what you used to think about ${t.phrase}, what changed your mind, and what you do differently since.${useFigures(figures)}`,
    },
    {
      hook: (t) => `I learned more from ${t.phrase} than I expected.`,
      angle: (t, _f, figures) =>
        `Pick one moment with ${t.phrase} a reader could picture, and tell what it taught you.${useFigures(figures)}`,
    },
  ],
  'pure-number': [
    {
      hook: (t) => `3 mistakes I keep seeing with ${t.phrase}.`,
      angle: (t, f) =>
        `List the three mistakes with ${t.phrase} you see most, each with the fix you use${perPage(f)}.`,
    },
    {
      hook: (t) => `5 questions worth asking about ${t.phrase}.`,
      angle: (t, f) =>
        `Give five short questions about ${t.phrase}, each with a line on why it matters${perPage(f)}.`,
    },
    {
      hook: (t) => `3 ways to look at ${t.phrase} differently.`,
      angle: (t, f) =>
        `Give three ways to look at ${t.phrase}, each with an example from your own work${perPage(f)}.`,
    },
  ],
  contrarian: [
    {
      hook: (t) => `Most ${adviceAbout(t)} gets the order wrong.`,
      angle: (t) =>
        `Name the order the usual ${adviceAbout(t)} gives, then the order that worked for you, and why.`,
    },
    {
      hook: (t) => `Stop treating ${t.phrase} as an afterthought.`,
      angle: (t) =>
        `Show what happens when ${t.phrase} ${agree(t, 'is', 'are')} left to the end, then what changes when ${they(t)} ${agree(t, 'comes', 'come')} first.`,
    },
    {
      hook: (t) => `Nobody talks about the hard part of ${t.phrase}.`,
      angle: (t) =>
        `Name the hard part of ${t.phrase} that people skip, show it with one example, and say how you deal with it.`,
    },
  ],
  statement: [
    {
      hook: (t) => `${capitalised(t.phrase)} ${agree(t, 'deserves', 'deserve')} a closer look.`,
      angle: (t, _f, figures) =>
        `Make one clear claim about ${t.phrase} and back it with one concrete example.${useFigures(figures)}`,
    },
    {
      hook: (t) =>
        `${capitalised(t.phrase)} ${agree(t, 'deserves', 'deserve')} a plan of ${agree(t, 'its', 'their')} own.`,
      angle: (t) =>
        `Say why ${t.phrase} ${agree(t, 'needs', 'need')} a plan of ${agree(t, 'its', 'their')} own: what leaving ${agree(t, 'it', 'them')} to chance costs, and the first step you would take.`,
    },
    {
      hook: (t) => `Here is what ${t.phrase} ${agree(t, 'looks', 'look')} like up close.`,
      angle: (t, f) =>
        `Show ${t.phrase} up close, step by step${perPage(f)}: the parts people rarely see, and what each one is for.`,
    },
  ],
  question: [
    {
      hook: (t) => `What would you change first about ${t.phrase}?`,
      angle: (t, f) => `Give your own answer on ${t.phrase} in two lines, then ask readers to ${replies(f)}.`,
    },
    {
      hook: (t) => `How do you handle ${t.reader}?`,
      angle: (t, f) => `Say in two lines how you handle ${t.phrase}, then ask readers to ${replies(f)}.`,
    },
    {
      hook: (t) => `What is the one thing you would ask about ${t.phrase}?`,
      angle: (t, f) => `Say what you would ask about ${t.phrase} and why, then ask readers to ${replies(f)}.`,
    },
  ],
  other: [
    { hook: (t) => `${capitalised(t.phrase)}.`, angle: (t) => `Make one clear point about ${t.phrase}.` },
  ],
};

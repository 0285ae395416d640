import type { HookArchetype, MediaKind } from '../../domain/enums.ts';
import { adviceAbout, agree, capitalised, type Theme } from '../text/themes.ts';

/**
 * Hooks and their angles for offline plans when the brief gives no line of its own for a slot
 * (plan-brief-hooks.ts makes those), eight to twenty per archetype (number hooks, which the brief's figures rarely make, the most), so plans spread over them. Each reads as a finished
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
    {
      hook: (t) => `I started to see ${t.phrase} differently.`,
      angle: (t, _f, figures) =>
        `Tell how you saw ${t.phrase} before, the day that changed, and how you see ${they(t)} now.${useFigures(figures)}`,
    },
    {
      hook: (t) => `I did not expect ${t.phrase} to matter so much.`,
      angle: (t, _f, figures) =>
        `Say when ${t.phrase} started to matter to you, and show it with one thing that happened.${useFigures(figures)}`,
    },
    {
      hook: (t) => `My first brush with ${t.phrase} taught me the most.`,
      angle: (t, _f, figures) =>
        `Go back to your first time with ${t.phrase}: what you tried, what went badly, and what you kept.${useFigures(figures)}`,
    },
    {
      hook: (t) => `I used to underestimate ${t.phrase}.`,
      angle: (t, _f, figures) =>
        `Say what you used to think ${t.phrase} took, the moment you saw what ${they(t)} really ${agree(t, 'takes', 'take')}, and what you do now.${useFigures(figures)}`,
    },
    {
      hook: (t) => `I got ${t.phrase} wrong for years.`,
      angle: (t, _f, figures) =>
        `Own up to one thing you got wrong with ${t.phrase}, what it cost, and how you fixed it.${useFigures(figures)}`,
    },
  ],
  'pure-number': [
    {
      hook: (t) => `3 mistakes keep showing up in ${t.phrase}.`,
      angle: (t, f) =>
        `List the three mistakes with ${t.phrase} you see most, each with the fix you use${perPage(f)}.`,
    },
    {
      hook: (t) => `5 questions are worth asking about ${t.phrase}.`,
      angle: (t, f) =>
        `Give five short questions about ${t.phrase}, each with a line on why it matters${perPage(f)}.`,
    },
    {
      hook: (t) => `3 things about ${t.phrase} surprised me.`,
      angle: (t, f) =>
        `Name three things about ${t.phrase} that surprised you, each with what you expected instead${perPage(f)}.`,
    },
    {
      hook: (t) => `4 signs show that ${t.phrase} ${agree(t, 'is', 'are')} working.`,
      angle: (t, f) =>
        `Name four signs you watch for in ${t.phrase}, and what each one told you${perPage(f)}.`,
    },
    {
      hook: (t) => `7 small fixes help with ${t.phrase}.`,
      angle: (t, f) =>
        `Give seven small fixes for ${t.phrase}, one line each, the quickest first${perPage(f)}.`,
    },
    {
      hook: (t) => `2 habits keep ${t.phrase} simple.`,
      angle: (t, f) =>
        `Describe the two habits that keep ${t.phrase} simple for you, with how you started each${perPage(f)}.`,
    },
    {
      hook: (t) => `4 numbers tell me how ${t.phrase} ${agree(t, 'is', 'are')} going.`,
      angle: (t, f) =>
        `Name the four numbers you check for ${t.phrase}, what each tells you, and what you do when one moves${perPage(f)}.`,
    },
    {
      hook: (t) => `6 small choices shape ${t.phrase}.`,
      angle: (t, f) =>
        `List six small choices that shape ${t.phrase}, each with the one you make and why${perPage(f)}.`,
    },
    {
      hook: (t) => `2 rules keep ${t.phrase} on track.`,
      angle: (t, f) =>
        `Give your two rules for ${t.phrase}, and one time each of them saved you${perPage(f)}.`,
    },
    {
      hook: (t) => `5 words describe ${t.phrase} best.`,
      angle: (t, f) =>
        `Pick five words for ${t.phrase} and give each a line from your own work${perPage(f)}.`,
    },
    {
      hook: (t) => `10 minutes a week keep ${t.phrase} healthy.`,
      angle: (t, f) =>
        `Walk through the ten minutes a week you give ${t.phrase}: what you check, in what order, and what it catches${perPage(f)}.`,
    },
    {
      hook: (t) => `3 warning signs show up early in ${t.phrase}.`,
      angle: (t, f) =>
        `Name three early warning signs in ${t.phrase}, and what you do when you see each${perPage(f)}.`,
    },
    {
      hook: (t) => `2 questions come before any change to ${t.phrase}.`,
      angle: (t, f) =>
        `Give the two questions you ask before changing ${t.phrase}, and one change they stopped${perPage(f)}.`,
    },
    {
      hook: (t) => `5 minutes with ${t.phrase} can save a week.`,
      angle: (t, f) =>
        `Show the five-minute check on ${t.phrase} you would not skip, and the week it once saved you${perPage(f)}.`,
    },
    {
      hook: (t) => `2 mistakes cost me the most with ${t.phrase}.`,
      angle: (t, f) =>
        `Tell the two mistakes with ${t.phrase} that cost you most, what each cost, and the fix${perPage(f)}.`,
    },
    {
      hook: (t) => `3 small tests show whether ${t.phrase} ${agree(t, 'works', 'work')}.`,
      angle: (t, f) =>
        `Describe three quick tests you run on ${t.phrase}, and what a pass and a fail look like${perPage(f)}.`,
    },
    {
      hook: (t) => `4 myths about ${t.phrase} refuse to die.`,
      angle: (t, f) =>
        `Name four things people still believe about ${t.phrase}, each with what you have seen instead${perPage(f)}.`,
    },
    {
      hook: (t) => `5 checks keep ${t.phrase} honest.`,
      angle: (t, f) =>
        `List the five checks you run on ${t.phrase}, each with what it has caught${perPage(f)}.`,
    },
    {
      hook: (t) => `3 trade-offs define ${t.phrase}.`,
      angle: (t, f) =>
        `Set out the three trade-offs in ${t.phrase}, and which side you take on each and why${perPage(f)}.`,
    },
    {
      hook: (t) => `2 numbers matter most in ${t.phrase}.`,
      angle: (t, f) =>
        `Name the two numbers you watch in ${t.phrase}, why those two, and what you do when they move${perPage(f)}.`,
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
    {
      hook: (t) => `The usual ${adviceAbout(t)} is overrated.`,
      angle: (t) =>
        `Quote the usual ${adviceAbout(t)} in your own words, say where it fails, and what you do instead.`,
    },
    {
      hook: (t) => `Forget what you heard about ${t.phrase}.`,
      angle: (t) =>
        `Name one thing people repeat about ${t.phrase}, then show from your own work why it does not hold.`,
    },
    {
      hook: (t) => `Most people overthink ${t.phrase}.`,
      angle: (t) =>
        `Show the simple version of ${t.phrase} that works for you, and what people add that it does not need.`,
    },
    {
      hook: (t) => `Nobody warned me about ${t.phrase}.`,
      angle: (t) =>
        `Say what nobody told you about ${t.phrase}, how you found out, and what you would warn others about.`,
    },
    {
      hook: (t) => `Most people learn ${t.phrase} the hard way.`,
      angle: (t) =>
        `Show the hard way most people learn ${t.phrase}, then the shorter way you would point them to.`,
    },
    {
      hook: (t) => `Stop overcomplicating ${t.phrase}.`,
      angle: (t) =>
        `Name what people add to ${t.phrase} that it does not need, and show the plain version that works.`,
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
      hook: (t) => `Here is what ${t.phrase} ${agree(t, 'looks', 'look')} like.`,
      angle: (t, f) =>
        `Show ${t.phrase} up close, step by step${perPage(f)}: the parts people rarely see, and what each one is for.`,
    },
    {
      hook: (t) => `${capitalised(t.phrase)} ${agree(t, 'rewards', 'reward')} patience.`,
      angle: (t, _f, figures) =>
        `Show what ${t.phrase} gave back once you stayed with ${they(t)}, and how long that took.${useFigures(figures)}`,
    },
    {
      hook: (t) => `${capitalised(t.phrase)} ${agree(t, 'starts', 'start')} with one good habit.`,
      angle: (t) =>
        `Name the one habit ${t.phrase} ${agree(t, 'starts', 'start')} with for you, and show it at work.`,
    },
    {
      hook: (t) =>
        `${capitalised(t.phrase)} ${agree(t, 'is', 'are')} simpler than ${they(t)} ${agree(t, 'looks', 'look')}.`,
      angle: (t, f) =>
        `Take ${t.phrase} apart into the few steps that matter${perPage(f)}, and say why the rest can wait.`,
    },
    {
      hook: (t) => `${capitalised(t.phrase)} ${agree(t, 'is', 'are')} mostly about small decisions.`,
      angle: (t, f) =>
        `Show the small decisions ${t.phrase} ${agree(t, 'comes', 'come')} down to${perPage(f)}, and which one matters most.`,
    },
    {
      hook: (t) => `${capitalised(t.phrase)} ${agree(t, 'is', 'are')} a team sport.`,
      angle: (t) =>
        `Name who ${t.phrase} ${agree(t, 'depends', 'depend')} on besides you, and what each of them brings.`,
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
    {
      hook: (t) => `Where do you stand on ${t.phrase}?`,
      angle: (t, f) => `Say where you stand on ${t.phrase} in two lines, then ask readers to ${replies(f)}.`,
    },
    {
      hook: (t) => `Who taught you the most about ${t.phrase}?`,
      angle: (t, f) =>
        `Name who taught you about ${t.phrase} and what they showed you, then ask readers to ${replies(f)}.`,
    },
    {
      hook: (t) => `What surprised you most about ${t.phrase}?`,
      angle: (t, f) =>
        `Tell what surprised you most about ${t.phrase} in two lines, then ask readers to ${replies(f)}.`,
    },
    {
      hook: (t) => `Which part of ${t.phrase} would you fix first?`,
      angle: (t, f) =>
        `Say which part of ${t.phrase} you would fix first and why, then ask readers to ${replies(f)}.`,
    },
    {
      hook: (t) => `Why ${agree(t, 'does', 'do')} ${t.phrase} get so little attention?`,
      angle: (t, f) =>
        `Give two reasons ${t.phrase} ${agree(t, 'gets', 'get')} overlooked, then ask readers to ${replies(f)}.`,
    },
    {
      hook: (t) => `How would you explain ${t.phrase} to a new colleague?`,
      angle: (t, f) => `Explain ${t.phrase} in two plain lines, then ask readers to ${replies(f)}.`,
    },
    {
      hook: (t) => `${agree(t, 'Is', 'Are')} ${t.phrase} worth the effort?`,
      angle: (t, f) =>
        `Say what ${t.phrase} cost you and what it gave back, then ask readers to ${replies(f)}.`,
    },
  ],
  other: [
    { hook: (t) => `${capitalised(t.phrase)}.`, angle: (t) => `Make one clear point about ${t.phrase}.` },
  ],
};

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
      return `Give your own answer about ${t.phrase} in two lines, then ask readers to ${replies(format)}.`;
    default:
      return `Back this claim about ${t.phrase} with one example a reader can check.${useFigures(figures)}`;
  }
}

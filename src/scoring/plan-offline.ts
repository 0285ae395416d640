import type { Cadence, HookArchetype, MediaKind } from '../domain/enums.ts';
import { detectArchetype } from './hook.ts';
import { hasPhrase } from './phrases.ts';
import { rubricFor } from './rubrics.ts';
import { capitalised, phraseOf, type Theme, themesOf } from './themes.ts';
import type { BrandContext, PlanInput, PlanItem } from './types.ts';

/**
 * Offline planning. Pillars are themes: the brand's when it has them, else the noun phrases the
 * brief is about (themes.ts), never the brief itself; a brief too short to hold more than its
 * own topic gets content pillars (lessons, behind the scenes...) about that topic. Each slot
 * pairs a hook archetype with the format that suits it (a numbered list as a document, a
 * question as a poll), rotating so neighbours differ, and every hook is distinct. Angles say
 * what to write and start from the brief's own words for that pillar. Outlines, not drafts.
 */

export type PlanOutline = Omit<PlanItem, 'slot'>;

/** Best calibration medians first; five, so three slots already get three kinds of hook. */
const ARCHETYPES: HookArchetype[] = ['story', 'pure-number', 'contrarian', 'statement', 'question'];
/** Formats that suit each archetype, best first (filtered by what the platform has). */
const FORMAT_FIT: Record<HookArchetype, MediaKind[]> = {
  story: ['single-image', 'none', 'video'],
  'pure-number': ['document', 'multi-image', 'none'],
  contrarian: ['none', 'video', 'single-image'],
  statement: ['multi-image', 'video', 'none', 'single-image'],
  question: ['poll', 'none', 'single-image'],
  other: ['none'],
};
const CONTENT_PILLARS = ['Lessons learned', 'Behind the scenes', 'Results so far', 'Industry view'];

/** Up to four themes of the brief, never the whole brief. */
function briefThemes(brief: string): Theme[] {
  const whole = brief
    .trim()
    .replace(/[.!?]+$/, '')
    .toLowerCase();
  // A theme with a contrarian word ("mistakes", "myths") would turn every hook contrarian.
  return themesOf(brief, 6)
    .filter((t) => t.text.toLowerCase() !== whole && !hasPhrase('contrarian', t.phrase))
    .slice(0, 4);
}

/** Pillars as written, with the phrase hooks use for each ("Invoice" -> "invoices"). */
function pillarThemes(brief: string, brand: BrandContext | null): { pillars: Theme[]; generic: boolean } {
  const themes = (brand?.themes ?? []).map((t) => t.trim()).filter(Boolean);
  if (themes.length)
    return { pillars: themes.map((t) => ({ text: t, phrase: phraseOf(t) })), generic: false };
  const fromBrief = briefThemes(brief).map((t) => ({ ...t, text: capitalised(t.text) }));
  if (fromBrief.length >= 2) return { pillars: fromBrief, generic: false };
  return { pillars: CONTENT_PILLARS.map((t) => ({ text: t, phrase: phraseOf(t) })), generic: true };
}

/** The pillars a plan uses (the model engine suggests them to the model). */
export function pillarsFor(brief: string, brand: BrandContext | null): string[] {
  return pillarThemes(brief, brand).pillars.map((t) => t.text);
}

type Hook = (t: string, T: string) => string;
/** Several per archetype, each reading well around a bare noun phrase ("pricing", "Q3 launch"). */
const HOOKS: Record<HookArchetype, Hook[]> = {
  story: [
    (t) => `My biggest lesson about ${t} came late.`,
    (t) => `When I first took on ${t}, I underestimated it.`,
    (t) => `I changed how I think about ${t} this year.`,
  ],
  'pure-number': [
    (t) => `3 mistakes I keep seeing with ${t}.`,
    (t) => `5 questions to ask before you change ${t}.`,
    (t) => `3 steps we actually use for ${t}.`,
  ],
  contrarian: [
    (t) => `Most advice about ${t} gets the order wrong.`,
    (t) => `Unpopular opinion: ${t} is rarely the real problem.`,
    (t) => `Stop treating ${t} as an afterthought.`,
  ],
  statement: [
    (t) => `Most roadmaps underrate ${t}.`,
    (t) => `Small teams win or lose on ${t}.`,
    (t) => `Give ${t} a plan of its own.`,
  ],
  question: [
    (t) => `What would you change first about ${t}?`,
    (t) => `How do you measure ${t} on your team?`,
    (t) => `Where does ${t} go wrong for you?`,
  ],
  other: [(_t, T) => `${T}.`],
};

/** What to write; `from` is the brief's own sentence for the pillar, when it has one. */
function angleFor(archetype: HookArchetype, t: string, from: string | null, format: MediaKind): string {
  const start = from ? `Start from what happened (${from}): ` : 'Pick one real case: ';
  switch (archetype) {
    case 'story':
      return `${start}tell the moment ${t} changed for you, what you expected, what happened and what you kept.`;
    case 'pure-number':
      return `${start}list the three mistakes around ${t} you see most, each with the fix you use${format === 'document' ? ', one per page' : ''}.`;
    case 'contrarian':
      return `${start}name the usual belief about ${t}, then show where it breaks.`;
    case 'question':
      return `${start}give your own answer on ${t} in two lines, then ask readers to ${format === 'poll' ? 'vote and say why' : 'reply with theirs'}.`;
    default:
      return `${start}make one clear claim about ${t} and back it with that example.`;
  }
}

/** The brief's sentence that names a theme, as a lower-cased clause (null when it is only the theme). */
function sentenceFor(theme: string, sentences: string[]): string | null {
  const key = theme.toLowerCase();
  const s = sentences.find((x) => x.toLowerCase().includes(key));
  if (!s) return null;
  const clause = s.replace(/[.!?…]+$/u, '').trim();
  if (clause.toLowerCase() === key || clause.split(/\s+/).length < 3) return null;
  const short = clause.length > 90 ? `${clause.slice(0, clause.lastIndexOf(' ', 88))}…` : clause;
  return phraseOf(short.split(/\s+/)[0]!) + short.slice(short.indexOf(' '));
}

export function planOffline(input: PlanInput, brand: BrandContext | null): PlanOutline[] {
  const count = Math.min(14, Math.max(1, input.count ?? 5));
  const rubric = rubricFor(input.platform);
  const brief = input.brief.trim().replace(/\s+/g, ' ');
  const sentences = brief.split(/(?<=[.!?…])\s+|\n+/u).filter(Boolean);
  // Content pillars are about the brief's topic; theme pillars are their own topic.
  const { pillars, generic } = pillarThemes(brief, brand);
  const topic = themesOf(brief, 1)[0]?.phrase ?? phraseOf(brief.replace(/[.!?]+$/, ''));
  const usedHooks = new Set<string>();
  const recentFormats: MediaKind[] = [];
  const formats: readonly MediaKind[] = rubric.formats.filter((f) => f !== 'link');
  return Array.from({ length: count }, (_, i) => {
    const archetype = ARCHETYPES[i % ARCHETYPES.length]!;
    // With five pillars (or ten) each would always get the same kind of hook: shift them per round.
    const round = pillars.length % ARCHETYPES.length === 0 ? Math.floor(i / ARCHETYPES.length) : 0;
    const { text: pillar, phrase } = pillars[(i + round) % pillars.length]!;
    const t = generic ? topic : phrase;
    const hooks = HOOKS[archetype];
    const offset = Math.floor(i / ARCHETYPES.length);
    const variants = hooks.map((_, v) => hooks[(v + offset) % hooks.length]!(t, capitalised(t)));
    // A theme can carry words that make another kind of hook ("myths"): prefer a variant that
    // reads as the archetype, and report the archetype the hook actually has.
    const fresh = variants.filter((h) => !usedHooks.has(h));
    // Every variant taken (a long plan on one topic): the pillar, then the slot, tells it apart.
    const hook =
      fresh.find((h) => detectArchetype(h) === archetype) ??
      fresh[0] ??
      [`${variants[0]} (${pillar})`, `${variants[0]} (${pillar}, slot ${i + 1})`].find(
        (h) => !usedHooks.has(h),
      )!;
    const kind = detectArchetype(hook);
    usedHooks.add(hook);
    const fit = FORMAT_FIT[archetype].filter((f) => formats.includes(f));
    const format =
      fit.find((f) => !recentFormats.includes(f)) ??
      formats.find((f) => !recentFormats.includes(f)) ??
      fit[0] ??
      'none';
    recentFormats.push(format);
    if (recentFormats.length > 2) recentFormats.shift();
    const from = generic ? sentenceFor(topic, sentences) : sentenceFor(pillar, sentences);
    return { pillar, hook, angle: angleFor(kind, t, from, format), format, archetype: kind };
  });
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const CADENCE_DAYS: Record<Cadence, number[]> = {
  daily: [1, 2, 3, 4, 5, 6, 0],
  weekdays: [1, 2, 3, 4, 5],
  '3x-week': [1, 3, 5],
};

/** The publishing day of each slot under a cadence: "Mon, week 1", ... (null without one). */
export function cadenceLabel(cadence: Cadence | undefined, index: number): string | null {
  if (!cadence) return null;
  const days = CADENCE_DAYS[cadence];
  return `${DAYS[days[index % days.length]!]}, week ${Math.floor(index / days.length) + 1}`;
}

/** Numbers the outlines and prefixes each angle with its cadence day (same for every engine). */
export function toPlanItems(outlines: PlanOutline[], cadence: Cadence | undefined): PlanItem[] {
  return outlines.map((o, i) => {
    const label = cadenceLabel(cadence, i);
    return { slot: i + 1, ...o, angle: label ? `${label}: ${o.angle}` : o.angle };
  });
}

import type { Cadence, HookArchetype, MediaKind } from '../../domain/enums.ts';
import { detectArchetype } from '../rules/hook.ts';
import { rubricFor } from '../rules/rubrics.ts';
import { quantitiesOf } from '../text/noun-phrases.ts';
import { hasPhrase } from '../text/phrases.ts';
import { capitalised, impersonal, labelTheme, type Theme, themesOf } from '../text/themes.ts';
import type { BrandContext, PlanInput, PlanItem } from '../types.ts';
import { cleanBrief, isGenreTheme } from './brief-clean.ts';
import { sentencesOfLine } from './brief-reading.ts';
import { type BriefHook, briefHooks } from './plan-brief-hooks.ts';
import { briefAngle, SLOTS } from './plan-hooks.ts';

/**
 * Offline planning. Pillars are themes: the brand's when it has them, else the noun phrases the
 * brief is about (themes.ts), never the brief itself; a brief too short to hold more than its
 * own topic gets content pillars (lessons, behind the scenes...) about that topic. Each slot
 * pairs a hook archetype with the format that suits it (a numbered list as a document, a
 * question as a poll), rotating so neighbours differ, and every hook is distinct. Hooks and
 * angles come in pairs (plan-hooks.ts): the angle says what to write for that hook, in its own
 * words about the theme, never quoting the brief. Outlines, not drafts.
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
/** Formats that suit a hook archetype, best first (plans from history swap in one of these only). */
export const formatsFor = (archetype: HookArchetype): MediaKind[] => FORMAT_FIT[archetype];
const CONTENT_PILLARS = ['Lessons learned', 'Behind the scenes', 'Results so far', 'Industry view'];

/**
 * Up to four themes of the brief, never the whole brief: phrases of two words or more first,
 * single words only while fewer than three themes are found ("pricing, hiring and culture").
 */
function briefThemes(brief: string): Theme[] {
  const whole = brief
    .trim()
    .replace(/[.!?]+$/, '')
    .toLowerCase();
  // A theme with a contrarian word ("mistakes", "myths") would turn every hook contrarian.
  // A theme that names a kind of post ("post series", "lessons") is the brief's label, not a topic.
  const themes = themesOf(brief, 8).filter(
    (t) => t.text.toLowerCase() !== whole && !hasPhrase('contrarian', t.phrase) && !isGenreTheme(t.text),
  );
  const long = themes.filter((t) => t.text.includes(' '));
  const short = themes.filter((t) => !t.text.includes(' '));
  return [...long, ...short.slice(0, Math.max(0, 3 - long.length))]
    .sort((a, b) => themes.indexOf(a) - themes.indexOf(b))
    .slice(0, 4);
}

interface Pillar {
  name: string;
  theme: Theme;
}

/** Pillars as written, each with the theme its hooks are about. */
function pillarThemes(brief: string, brand: BrandContext | null): { pillars: Pillar[]; generic: boolean } {
  const themes = (brand?.themes ?? []).map((t) => t.trim()).filter(Boolean);
  const fromBrief = briefThemes(brief).map((t) => ({ name: capitalised(t.text), theme: t }));
  if (themes.length) {
    // A brand's themes add to the brief's, never replace them: the two alternate, the brief's
    // first, so even a short plan is about what the brief asked for.
    const branded = themes.map((t) => ({ name: t, theme: labelTheme(t) }));
    const own = fromBrief.filter((p) => !branded.some((b) => b.name.toLowerCase() === p.name.toLowerCase()));
    const pillars = Array.from({ length: Math.max(own.length, branded.length) }, (_, k) =>
      [own[k], branded[k]].filter((p): p is Pillar => p !== undefined),
    ).flat();
    return { pillars, generic: false };
  }
  if (fromBrief.length >= 2) return { pillars: fromBrief, generic: false };
  return { pillars: CONTENT_PILLARS.map((t) => ({ name: t, theme: labelTheme(t) })), generic: true };
}

/** The pillars a plan uses (the model engine suggests them to the model). */
export function pillarsFor(brief: string, brand: BrandContext | null): string[] {
  return pillarThemes(planBrief(brief), brand).pillars.map((p) => p.name);
}

/**
 * The topics a brief names (its themes, as pillars are written): what every plan of it must
 * still be about, a brand or not. None for a brief that is only a label ("Q3 content push").
 */
export function briefTopics(brief: string): string[] {
  const { pillars, generic } = pillarThemes(planBrief(brief), null);
  return generic ? [] : pillars.map((p) => p.name);
}

/** What a plan is about: the brief without its instruction or label, on one line. */
export function planBrief(brief: string): string {
  const clean = cleanBrief(brief);
  return (clean.text || clean.topic || brief).trim().replace(/\s+/g, ' ');
}

export function planOffline(input: PlanInput, brand: BrandContext | null): PlanOutline[] {
  const count = Math.min(14, Math.max(1, input.count ?? 5));
  const rubric = rubricFor(input.platform);
  // The brief's instruction and label are no topic ("Write a post series about ...", "pricing lessons").
  const clean = cleanBrief(input.brief);
  const brief = planBrief(input.brief);
  // Content pillars are about the brief's topic; theme pillars are their own topic.
  const { pillars, generic } = pillarThemes(brief, brand);
  const topic =
    clean.topic !== null
      ? labelTheme(clean.topic)
      : (themesOf(brief, 1)[0] ?? labelTheme(brief.replace(/[.!?]+$/, '')));
  // Plans from different briefs start from different variants, so one hook is not every plan's.
  const start = spread(brief);
  // An item's figures are those of the brief's sentences about its pillar (or its hook's own).
  const sentences = sentencesOfLine(brief);
  const figuresFor = (theme: Theme, hook: string) => [
    ...new Set(
      sentences
        .filter((line) => mentions(line, theme) || line.includes(hook) || hook.includes(line))
        .flatMap(briefFigures),
    ),
  ];
  const usedHooks = new Set<string>();
  const recentFormats: MediaKind[] = [];
  const formats: readonly MediaKind[] = rubric.formats.filter((f) => f !== 'link');
  /** The format that suits an archetype, never one of the last two slots' (platform permitting). */
  const formatFor = (archetype: HookArchetype): MediaKind => {
    const fit = FORMAT_FIT[archetype].filter((f) => formats.includes(f));
    const format =
      fit.find((f) => !recentFormats.includes(f)) ??
      formats.find((f) => !recentFormats.includes(f)) ??
      fit[0] ??
      'none';
    recentFormats.push(format);
    if (recentFormats.length > 2) recentFormats.shift();
    return format;
  };
  // Hooks made of the brief's own sentences, claims and figures come first (plan-brief-hooks.ts);
  // a label-only brief has none, and gets the templates below.
  const fromBrief = generic ? [] : briefHooks(brief, start);
  const branded = (brand?.themes ?? []).some((t) => t.trim());
  const usedSources = new Set<number>();
  /**
   * An unused hook of the brief read as `archetype`, one per sentence of the brief, about the
   * slot's pillar when one is; under a brand's themes only one that names a theme.
   */
  const ownHook = (archetype: HookArchetype, pillar: Pillar, all: Pillar[], brandOnly: boolean) => {
    const open = fromBrief.filter(
      (h) =>
        h.archetype === archetype &&
        !usedSources.has(h.source) &&
        !usedHooks.has(h.hook) &&
        detectArchetype(h.hook) === archetype &&
        (!brandOnly || all.some((p) => mentions(h.hook, p.theme))),
    );
    if (brandOnly) return open.find((h) => mentions(h.hook, pillar.theme));
    // Another pillar's hook only while it does not take a pillar the plan has already had
    // before every pillar has had a slot: three slots on three pillars still cover all three.
    const fresh = (h: BriefHook) => {
      const named = all.find((p) => mentions(h.hook, p.theme));
      return !named || !usedPillars.has(named.name) || usedPillars.size >= all.length;
    };
    return open.find((h) => mentions(h.hook, pillar.theme)) ?? open.find(fresh);
  };
  const usedPillars = new Set<string>();
  return Array.from({ length: count }, (_, i) => {
    const archetype = ARCHETYPES[i % ARCHETYPES.length]!;
    // With five pillars (or ten) each would always get the same kind of hook: shift them per round.
    const round = pillars.length % ARCHETYPES.length === 0 ? Math.floor(i / ARCHETYPES.length) : 0;
    const pillar = pillars[(i + round) % pillars.length]!;
    const t = generic ? topic : pillar.theme;
    const own = ownHook(archetype, pillar, pillars, branded);
    if (own) {
      usedHooks.add(own.hook);
      usedSources.add(own.source);
      const format = formatFor(archetype);
      const about = own.theme ?? pillar.theme;
      const named = pillars.find((p) => mentions(own.hook, p.theme));
      const name = named?.name ?? (own.theme ? capitalised(own.theme.text) : pillar.name);
      usedPillars.add(name);
      return {
        pillar: name,
        hook: own.hook,
        angle: briefAngle(
          archetype,
          own.verbatim,
          toWriter(named?.theme ?? about),
          format,
          figuresFor(named?.theme ?? about, own.hook),
        ),
        format,
        archetype,
      };
    }
    const slots = SLOTS[archetype];
    const offset = Math.floor(i / ARCHETYPES.length) + start;
    const variants = slots.map((_, v) => slots[(v + offset) % slots.length]!);
    // A theme can carry words that make another kind of hook ("myths", "my first ..." reads as
    // a story): prefer a variant that reads as the archetype, saying "the first marathon" for
    // "my first marathon" if it must, and report the archetype the hook actually has.
    const tries = [counted(t), impersonal(counted(t))].flatMap((theme) =>
      variants.map((slot) => ({ slot, theme })),
    );
    const fresh = tries.filter(({ slot, theme }) => !usedHooks.has(slot.hook(theme)));
    // Every variant taken (a long plan on one topic): the pillar, then the slot, tells it apart.
    const pick = fresh.find(({ slot, theme }) => detectArchetype(slot.hook(theme)) === archetype) ??
      fresh[0] ?? {
        theme: t,
        slot: {
          ...variants[0]!,
          hook: (x: Theme) => `${variants[0]!.hook(x)} (${pillar.name}, slot ${i + 1})`,
        },
      };
    const hook = pick.slot.hook(pick.theme);
    const kind = detectArchetype(hook);
    usedHooks.add(hook);
    usedPillars.add(pillar.name);
    const format = formatFor(archetype);
    return {
      pillar: pillar.name,
      hook,
      angle: pick.slot.angle(toWriter(pick.theme), format, figuresFor(pillar.theme, hook)),
      format,
      archetype: kind,
    };
  });
}

/** A count of posts is the request ("three posts", "a 5-slot plan"), not a fact of the brief. */
const REQUEST_COUNT = /\b(?:posts?|threads?|slots?|ideas?|drafts?|items?|hooks?|updates?)\b/i;
/** The figure a range ends with takes its start: "22 to 9 minutes", never "9 minutes" alone. */
const RANGE_START = /([$€£]?\d[\d.,]*\s?%?\s+(?:to|-|–)\s+)$/i;

/**
 * The figures a text states, as it says them: a count ("40%", "three months"; a bare unit such
 * as "the month" is none), a range whole, a figure that only starts a range not again, and no
 * count of the posts asked for.
 */
export function briefFigures(text: string): string[] {
  const found = quantitiesOf(text)
    .filter((f) => COUNT.test(f) && !REQUEST_COUNT.test(f))
    .map((f) => {
      const at = text.indexOf(f);
      const range = at > 0 ? text.slice(Math.max(0, at - 24), at).match(RANGE_START) : null;
      return range ? `${range[1]}${f}` : f;
    });
  return found.filter((f) => !found.some((g) => g !== f && g.includes(f)));
}

const COUNT =
  /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|half|dozen)\b/i;

/** An angle speaks to the writer: the author's "my first marathon" is "your first marathon" there. */
const toWriter = (t: Theme): Theme => ({ ...t, phrase: t.phrase.replace(/^(?:my|our) /, 'your ') });

/** A well-mixed hash of a text (FNV-1a, then a final mix), so briefs spread evenly over template variants. */
function spread(text: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** Abstract and mass nouns read bare ("pricing", "housing insecurity", "cloud infrastructure"). */
const MASS =
  /(?:ing|tion|sion|ness|ity|ance|ence|ism|ics|ment|care|ware|ship|hood|dom|work|ledge|ture|age|ogy|ry|cy|th|ure|ion|ai|data|money|time|media|flow|ops|sales|news|cash|content|marketing|finance|trust|health|safety|growth|debt|risk|luck)$/i;

/**
 * A single singular common noun the brief named with no determiner reads with "the" in a template
 * ("the interview", "the setup"): "advice about interview" is no English. Names, plurals and
 * mass nouns stay bare.
 */
function counted(t: Theme): Theme {
  // One word only: a compound said bare usually reads ("customer trust", "product development").
  if (t.proper || t.plural || t.phrase !== t.bare || t.bare.includes(' ') || MASS.test(t.bare)) return t;
  return { ...t, phrase: `the ${t.bare}`, reader: `your ${t.bare}` };
}

/** Whether a hook names a theme (its words, in any case). */
const mentions = (hook: string, theme: Theme) =>
  ` ${hook.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `.includes(
    ` ${theme.text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `,
  );

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

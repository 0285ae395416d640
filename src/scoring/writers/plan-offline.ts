import type { Cadence, HookArchetype, MediaKind } from '../../domain/enums.ts';
import { detectArchetype } from '../rules/hook.ts';
import { rubricFor } from '../rules/rubrics.ts';
import { quantitiesOf } from '../text/noun-phrases.ts';
import { hasPhrase } from '../text/phrases.ts';
import { capitalised, labelTheme, type Theme, themesOf } from '../text/themes.ts';
import type { BrandContext, PlanInput, PlanItem } from '../types.ts';
import { cleanBrief, isGenreTheme } from './brief-clean.ts';
import { sentencesOfLine } from './brief-reading.ts';
import { lowerFirst } from './first-letter.ts';
import { type BriefHook, briefHooks } from './plan-brief-hooks.ts';
import { BLANK_HOOKS, blankAngle, briefAngle, headline, headlineAngle, PILLAR_BLANKS } from './plan-hooks.ts';

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

/**
 * Pillars as written, each with the theme its hooks are about; `generic` when the brief names
 * too little for pillars of its own and content pillars about its topic stand in.
 */
function pillarThemes(brief: string, brand: BrandContext | null): { pillars: Pillar[]; generic: boolean } {
  const themes = (brand?.themes ?? []).map((t) => t.trim()).filter(Boolean);
  const fromBrief = briefThemes(brief).map((t) => ({ name: capitalised(t.text), theme: t }));
  const generic = fromBrief.length < 2;
  const ofBrief = generic ? CONTENT_PILLARS.map((t) => ({ name: t, theme: labelTheme(t) })) : fromBrief;
  if (!themes.length) return { pillars: ofBrief, generic };
  // A brand's themes add to the brief's, never replace them: the two alternate, the brief's
  // first, so even a short plan is about what the brief asked for.
  const branded = themes.map((t) => ({ name: t, theme: labelTheme(t) }));
  const own = ofBrief.filter((p) => !branded.some((b) => b.name.toLowerCase() === p.name.toLowerCase()));
  const pillars = Array.from({ length: Math.max(own.length, branded.length) }, (_, k) =>
    [own[k], branded[k]].filter((p): p is Pillar => p !== undefined),
  ).flat();
  return { pillars, generic };
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

/**
 * A request for posts at the brief's start ("Plan 3 posts:", "Plan three posts about this."):
 * the request, not the brief's content, so neither its count nor its words reach a hook.
 */
const PLAN_REQUEST =
  /^(?:please\s+)?(?:plan|write|create|draft|make|give me)\s+(?:me\s+)?(?:a\s+|an\s+)?(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a few|some)?[\s-]*(?:new\s+)?(?:posts?|slots?|items?|ideas?|drafts?|updates?)(?:\s+(?:about|on|for|from)\s+(?:this|these|that|it|the following))?\s*(?::\s*|\.\s+)/i;

/** What a plan is about: the brief without its request, instruction or label, on one line. */
export function planBrief(brief: string): string {
  const clean = cleanBrief(brief.trim().replace(PLAN_REQUEST, ''));
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
  // An item's figures are those of the brief's sentences about its pillar (or its hook's own).
  const sentences = sentencesOfLine(brief);
  const figuresFor = (theme: Theme, hook: string) => [
    ...new Set(
      sentences
        .filter((line) => mentions(line, theme) || line.includes(hook) || hook.includes(line))
        .flatMap(briefFigures),
    ),
  ];
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
  // Hooks are the brief's own sentences (plan-brief-hooks.ts), one sentence per hook; a label-only
  // brief has none, and gets its topic with a marked blank.
  const fromBrief = briefHooks(brief);
  const branded = (brand?.themes ?? []).some((t) => t.trim());
  const usedSources = new Set<number>();
  const usedPillars = new Set<string>();
  /**
   * An unused hook of the brief, of `archetype` when one is (null: any), about the slot's pillar
   * when one is; under a brand's themes, on a brand pillar only one that names it. Another
   * pillar's hook only while it does not take a pillar the plan has already had before every
   * pillar has had a slot: three slots on three pillars still cover all three.
   */
  const ownHook = (archetype: HookArchetype | null, pillar: Pillar, onlyOnPillar = false) => {
    const open = fromBrief.filter(
      (h) => (archetype === null || h.archetype === archetype) && !usedSources.has(h.source),
    );
    const onPillar = open.find((h) => mentions(h.hook, pillar.theme));
    if (onPillar || onlyOnPillar || (branded && isBrandPillar(pillar))) return onPillar;
    const fresh = (h: BriefHook) => {
      const named = pillars.find((p) => mentions(h.hook, p.theme));
      return !named || !usedPillars.has(named.name) || usedPillars.size >= pillars.length;
    };
    return open.find(fresh);
  };
  const brandNames = new Set((brand?.themes ?? []).map((t) => t.trim().toLowerCase()));
  const isBrandPillar = (p: Pillar) => brandNames.has(p.name.toLowerCase());
  /** The pillars not yet a headline, this slot's first: the hook where the brief has no sentence left. */
  const headlined = new Set<string>();
  /** Where a headline finds the words a theme was written with. */
  const said = `${brief}\n${(brand?.themes ?? []).join('\n')}`;
  let blanked = 0;
  // Then the brief's other themes, each a pillar of its own: a short brief names more than it says.
  const extra: Pillar[] = generic
    ? []
    : themesOf(brief, 12)
        .filter((t) => !isGenreTheme(t.text) && !hasPhrase('contrarian', t.phrase))
        .map((t) => ({ name: capitalised(t.text), theme: t }))
        .filter((p) => !pillars.some((q) => q.name.toLowerCase() === p.name.toLowerCase()));
  const items: PlanOutline[] = [];
  for (let i = 0; i < count; i++) {
    const archetype = ARCHETYPES[i % ARCHETYPES.length]!;
    // With five pillars (or ten) each would always get the same kind of hook: shift them per round.
    const round = pillars.length % ARCHETYPES.length === 0 ? Math.floor(i / ARCHETYPES.length) : 0;
    const pillar = pillars[(i + round) % pillars.length]!;
    // Under a brand the brief has half the slots: one of its pillars no sentence is about is said
    // as a headline rather than given to a sentence about something else, so its topics stay.
    const headlineFirst =
      branded && !generic && !isBrandPillar(pillar) && !usedPillars.has(pillar.name) && sayable(pillar.theme);
    const own = headlineFirst
      ? (ownHook(archetype, pillar, true) ?? ownHook(null, pillar, true))
      : (ownHook(archetype, pillar) ?? ownHook(null, pillar));
    if (own) {
      usedSources.add(own.source);
      const format = formatFor(own.archetype);
      const named = pillars.find((p) => mentions(own.hook, p.theme));
      const about = named?.theme ?? own.theme ?? pillar.theme;
      const name = named?.name ?? (own.theme ? capitalised(own.theme.text) : pillar.name);
      usedPillars.add(name);
      items.push({
        pillar: name,
        hook: own.hook,
        angle: briefAngle(own.archetype, own.verbatim, toWriter(about), format, figuresFor(about, own.hook)),
        format,
        archetype: own.archetype,
      });
      continue;
    }
    // The brief's sentences are spent: a pillar not yet said, as its own headline, or for a
    // content pillar the brief's topic and a marked blank.
    const open = [pillar, ...pillars, ...extra].filter((p) => !headlined.has(p.name) && sayable(p.theme));
    const next = open.find((p) => !usedPillars.has(p.name)) ?? open[0];
    if (!next) {
      // Headlines spent too: the pillar and a marked blank for the writer's own line.
      const k = blanked++;
      const on = pillars[k % pillars.length]!;
      const about = generic && CONTENT_PILLARS.includes(on.name) ? topic : on.theme;
      // Each blank of a plan asks for something else, so no two of its hooks share one.
      const hook = `${headline(about, said).slice(0, -1)}: ${PILLAR_BLANKS[k % PILLAR_BLANKS.length]}`;
      const kind = detectArchetype(hook);
      const format = formatFor(kind);
      items.push({ pillar: on.name, hook, angle: blankAngle(toWriter(about), ''), format, archetype: kind });
      continue;
    }
    headlined.add(next.name);
    usedPillars.add(next.name);
    const blank = generic ? BLANK_HOOKS[next.name] : undefined;
    const hook = blank ? `${capitalised(topic.text)}: ${blank}` : headline(next.theme, said);
    const kind = detectArchetype(hook);
    const format = formatFor(kind);
    items.push({
      pillar: next.name,
      hook,
      angle: blank
        ? blankAngle(toWriter(topic), next.name)
        : headlineAngle(toWriter(next.theme), figuresFor(next.theme, hook)),
      format,
      archetype: kind,
    });
  }
  return items;
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

/**
 * An angle speaks to the writer: the author's "my first marathon" is "your first marathon" there,
 * a theme that opened its sentence is said mid-sentence ("Retention" -> "retention"), and a lone
 * singular noun takes "the" ("the interview").
 */
const toWriter = (theme: Theme): Theme => {
  const t = counted(theme);
  const phrase = t.phrase.replace(/^(?:my|our) /, 'your ');
  return { ...t, phrase: t.proper || /^\p{Lu}{2}/u.test(phrase) ? phrase : lowerFirst(phrase) };
};

/** Abstract and mass nouns read bare ("pricing", "housing insecurity", "cloud infrastructure"). */
const MASS =
  /(?:ing|tion|sion|ness|ity|ance|ence|ism|ics|ment|care|ware|ship|hood|dom|work|ledge|ture|age|ogy|ry|cy|th|ure|ion|ai|data|money|time|media|flow|ops|sales|news|cash|content|marketing|finance|trust|health|safety|growth|debt|risk|luck)$/i;

/**
 * A single singular common noun the brief named with no determiner reads with "the" in an angle
 * ("the interview", "the setup"): "about interview" is no English. Names, plurals and
 * mass nouns stay bare.
 */
function counted(t: Theme): Theme {
  // One word only: a compound said bare usually reads ("customer trust", "product development").
  if (t.proper || t.plural || t.phrase !== t.bare || t.bare.includes(' ') || MASS.test(t.bare)) return t;
  return { ...t, phrase: `the ${t.bare}`, reader: `your ${t.bare}` };
}

/** A theme that reads as a headline: no run of lone letters ("R U T H"), no sentence end inside ("T. Send"). */
const sayable = (t: Theme) =>
  /^\p{L}[\p{L}\p{N}]/u.test(t.text) &&
  !/(?:^|\s)\p{L}(?:\s\p{L})+(?:\s|$)/u.test(t.text) &&
  !/\.\s+\p{Lu}\p{Ll}/u.test(t.text);

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

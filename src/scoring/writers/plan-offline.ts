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
import { type BriefHook, briefHooks, overlaps } from './plan-brief-hooks.ts';
import { BLANK_HOOKS, blankAngle, briefAngle, pillarBlank } from './plan-hooks.ts';
import { topicsOf } from './theme-fit.ts';

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
  const themes = topicsOf(brief, 8).filter(
    // A theme a hook cannot name ("@VideoNuze", "Emma W. Thorne" cut at its initial) is no pillar.
    (t) =>
      t.text.toLowerCase() !== whole &&
      !hasPhrase('contrarian', t.phrase) &&
      !isGenreTheme(t.text) &&
      sayable(t),
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
      : (topicsOf(brief, 1)[0] ?? themesOf(brief, 1)[0] ?? labelTheme(brief.replace(/[.!?]+$/, '')));
  // An item's figures are those of the brief's sentences about its pillar (or its hook's own).
  const sentences = sentencesOfLine(brief);
  const figuresFor = (theme: Theme, hook: string | null) => [
    ...new Set(
      sentences
        .filter(
          (line) => mentions(line, theme) || (hook !== null && (line.includes(hook) || hook.includes(line))),
        )
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
  const usedHooks: BriefHook[] = [];
  const usedPillars = new Set<string>();
  /**
   * An unused hook of the brief, of `archetype` when one is (null: any), about the slot's pillar
   * when one is; under a brand's themes, on a brand pillar only one that names it. Another
   * pillar's hook only while it does not take a pillar the plan has already had before every
   * pillar has had a slot: three slots on three pillars still cover all three.
   */
  const ownHook = (archetype: HookArchetype | null, pillar: Pillar, onlyOnPillar = false) => {
    const open = fromBrief.filter(
      (h) => (archetype === null || h.archetype === archetype) && !usedHooks.some((u) => overlaps(u, h)),
    );
    const onPillar = open.find((h) => mentions(h.hook, pillar.theme));
    if (onPillar || onlyOnPillar || (branded && isBrandPillar(pillar))) return onPillar;
    // A hook that names no pillar and has no theme of its own is about nothing a pillar could
    // be ("I am one of those people"): it would take the slot's pillar without being about it.
    const fresh = (h: BriefHook) => {
      const named = pillars.find((p) => mentions(h.hook, p.theme));
      if (!named && !h.theme) return false;
      return !named || !usedPillars.has(named.name) || usedPillars.size >= pillars.length;
    };
    // A sentence of the brief is a better hook than a blank, even on a pillar already had.
    return (
      open.find(fresh) ?? open.find((h) => h.theme !== null || pillars.some((p) => mentions(h.hook, p.theme)))
    );
  };
  const brandNames = new Set((brand?.themes ?? []).map((t) => t.trim().toLowerCase()));
  const isBrandPillar = (p: Pillar) => brandNames.has(p.name.toLowerCase());
  /** The blanks the plan has asked for: no two of its hooks ask for the same line. */
  const blanks = new Set<string>();
  const hooks = new Set<string>();
  const items: PlanOutline[] = [];
  for (let i = 0; i < count; i++) {
    const archetype = ARCHETYPES[i % ARCHETYPES.length]!;
    // With five pillars (or ten) each would always get the same kind of hook: shift them per round.
    const round = pillars.length % ARCHETYPES.length === 0 ? Math.floor(i / ARCHETYPES.length) : 0;
    const pillar = pillars[(i + round) % pillars.length]!;
    // Under a brand the brief has half the slots: one of its pillars no sentence is about is said
    // with a blank rather than given to a sentence about something else, so its topics stay.
    // Without a brand too, once the slots left are as few as the pillars not yet had, each goes
    // to one of them: a sentence about another topic would drop a topic the brief gives.
    const unsaid = pillars.filter((p) => !usedPillars.has(p.name) && sayable(p.theme));
    const mustSay = !generic && unsaid.includes(pillar) && count - i <= unsaid.length;
    const headlineFirst =
      mustSay ||
      (branded &&
        !generic &&
        !isBrandPillar(pillar) &&
        !usedPillars.has(pillar.name) &&
        sayable(pillar.theme));
    const own = headlineFirst
      ? (ownHook(archetype, pillar, true) ?? ownHook(null, pillar, true))
      : (ownHook(archetype, pillar) ?? ownHook(null, pillar));
    if (own) {
      usedHooks.push(own);
      const format = formatFor(own.archetype);
      const named = pillars.find((p) => mentions(own.hook, p.theme));
      const about = named?.theme ?? own.theme ?? pillar.theme;
      const name = named?.name ?? (own.theme ? capitalised(own.theme.text) : pillar.name);
      usedPillars.add(name);
      // A hook that names several pillars has said each of them.
      for (const p of pillars) if (mentions(own.hook, p.theme)) usedPillars.add(p.name);
      items.push({
        pillar: name,
        hook: own.hook,
        angle: briefAngle(
          own.archetype,
          own.kind,
          own.verbatim,
          toWriter(about),
          format,
          figuresFor(about, own.hook),
        ),
        format,
        archetype: own.archetype,
      });
      continue;
    }
    // The brief's sentences are spent: a pillar not yet said (else the slot's), named as the
    // brief names it, and a marked blank for the writer's own line; never the pillar alone as a
    // hook ("Shift handovers."), which is no sentence. A content pillar is about the brief's topic.
    const open = [pillar, ...pillars].filter((p) => sayable(p.theme));
    const next =
      open.find((p) => !usedPillars.has(p.name)) ?? (sayable(pillar.theme) ? pillar : open[0]) ?? pillar;
    usedPillars.add(next.name);
    const content = generic && CONTENT_PILLARS.includes(next.name);
    const about = content ? topic : next.theme;
    const figures = figuresFor(about, null);
    const named = capitalised(about.phrase);
    // A content pillar's own blank once; a second slot on it gets another kind of blank.
    const ofPillar =
      content && !blanks.has(BLANK_HOOKS[next.name]!)
        ? undefined
        : pillarBlank(
            archetype,
            figures.length > 0,
            (b) => blanks.has(b),
            (b) => hooks.has(`${named}: ${b}`),
          );
    const blank = ofPillar?.hook ?? BLANK_HOOKS[next.name]!;
    blanks.add(blank);
    const hook = `${named}: ${blank}`;
    hooks.add(hook);
    const kind = detectArchetype(hook);
    const format = formatFor(kind);
    items.push({
      pillar: next.name,
      hook,
      angle: ofPillar
        ? ofPillar.angle(toWriter(about), figures)
        : blankAngle(toWriter(about), next.name, figures),
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
  // A name with inner capitals ("OpenTable", "MongoDB") keeps them even where the tagger missed the name.
  return {
    ...t,
    phrase: t.proper || /^\p{Lu}(?:\p{Lu}|\p{Ll}+\p{Lu})/u.test(phrase) ? phrase : lowerFirst(phrase),
  };
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

/** A theme that reads as a headline ("M&S cyber attack"): no run of lone letters ("R U T H"), no sentence end inside ("T. Send"). */
const sayable = (t: Theme) =>
  /^\p{L}(?:[\p{L}\p{N}]|&\p{L})/u.test(t.text) &&
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

/** The cadence day toPlanItems puts before an angle ("Mon, week 1: "): a schedule, not what to write. */
export const CADENCE_PREFIX = /^(?:Sun|Mon|Tue|Wed|Thu|Fri|Sat), week \d+: /;

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

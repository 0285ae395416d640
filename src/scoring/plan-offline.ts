import type { Cadence, HookArchetype, MediaKind } from '../domain/enums.ts';
import { rubricFor } from './rubrics.ts';
import type { BrandContext, PlanInput, PlanItem } from './types.ts';

/**
 * Offline planning: pillars from the brand's themes (else from the brief), a rotation of
 * hook archetypes led by the best calibration medians, and a rotation of formats led by
 * the highest reach multipliers the platform supports. Outlines, not drafts.
 */

export type PlanOutline = Omit<PlanItem, 'slot'>;

const ARCHETYPES: HookArchetype[] = ['story', 'statement', 'contrarian', 'pure-number', 'story', 'question'];
const FORMATS: MediaKind[] = ['document', 'none', 'single-image', 'poll', 'none', 'video', 'multi-image'];
const DEFAULT_PILLARS = ['Lessons learned', 'How the work gets done', 'Industry view', 'Behind the scenes'];

/** Up to four short topics from the brief: its comma, semicolon, "and" or line separated parts. */
export function pillarsFromBrief(brief: string): string[] {
  const parts = brief
    .split(/[,;\n]|\band\b|\.\s/i)
    .map((p) => p.replace(/^[\s\-•*]+|[\s.!?:]+$/g, '').trim())
    .filter((p) => p.length >= 3 && p.split(/\s+/).length <= 6);
  const unique = [...new Map(parts.map((p) => [p.toLowerCase(), p])).values()];
  return unique.slice(0, 4).map((p) => p[0]!.toUpperCase() + p.slice(1));
}

export function pillarsFor(brief: string, brand: BrandContext | null): string[] {
  const themes = (brand?.themes ?? []).map((t) => t.trim()).filter(Boolean);
  if (themes.length) return themes;
  const fromBrief = pillarsFromBrief(brief);
  return fromBrief.length ? fromBrief : DEFAULT_PILLARS;
}

function hookFor(archetype: HookArchetype, pillar: string): string {
  const p = pillar.toLowerCase();
  switch (archetype) {
    case 'story':
      return `The moment ${p} stopped being theory for me.`;
    case 'contrarian':
      return `The usual advice on ${p} gets the order wrong.`;
    case 'pure-number':
      return `3 mistakes I keep seeing in ${p}.`;
    case 'question':
      return `What does good ${p} look like on your team?`;
    default:
      return `${pillar} decides more than most roadmaps do.`;
  }
}

function angleFor(archetype: HookArchetype, pillar: string, brief: string): string {
  const p = pillar.toLowerCase();
  const focus = brief.length > 90 ? `${brief.slice(0, 87).trimEnd()}…` : brief;
  switch (archetype) {
    case 'story':
      return `Tell one specific moment from ${p}, what went wrong and what you changed (${focus}).`;
    case 'contrarian':
      return `Name the common belief about ${p}, then show the case that breaks it (${focus}).`;
    case 'pure-number':
      return `Three concrete mistakes in ${p}, each with the fix you use (${focus}).`;
    case 'question':
      return `Share your own answer first, then ask readers how they run ${p} (${focus}).`;
    default:
      return `One clear claim about ${p}, backed by an example from your work (${focus}).`;
  }
}

export function planOffline(input: PlanInput, brand: BrandContext | null): PlanOutline[] {
  const count = Math.min(14, Math.max(1, input.count ?? 5));
  const rubric = rubricFor(input.platform);
  const formats = FORMATS.filter((f) => rubric.formats.includes(f));
  const pillars = pillarsFor(input.brief, brand);
  const brief = input.brief.trim().replace(/\s+/g, ' ');
  return Array.from({ length: count }, (_, i) => {
    const pillar = pillars[i % pillars.length]!;
    // Shift the archetype each time the pillars wrap, so a pillar does not repeat its angle.
    const archetype = ARCHETYPES[(i + Math.floor(i / pillars.length)) % ARCHETYPES.length]!;
    return {
      pillar,
      hook: hookFor(archetype, pillar),
      angle: angleFor(archetype, pillar, brief),
      format: formats[i % formats.length]!,
      archetype,
    };
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

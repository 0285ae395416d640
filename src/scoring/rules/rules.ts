import { countedLength } from '../../../packages/client/src/text-length.ts';
import type { Dimension, HookArchetype, MediaKind } from '../../domain/enums.ts';
import { extractFeatures, type TextFeatures } from '../text/text-features.ts';
import type { Breakdown, ScoreInput } from '../types.ts';
import { assessFormat, type FormatAssessment } from './format.ts';
import { genericTextRules } from './generic-text.ts';
import { ARCHETYPE_NOTES, archetypeOf } from './hook.ts';
import { type Rubric, rubricFor } from './rubrics.ts';
import { type Cap, clamp, type RuleContext, type RuleHit } from './rule-kit.ts';
import { hookRules, structureRules } from './rules-content.ts';
import { QUALITY_RULES, qualityRules } from './rules-quality.ts';
import { algorithmRules } from './rules-reach.ts';
import { writingRules } from './rules-writing.ts';

/**
 * The deterministic rules layer (SCORING.md "Rules"). Every rule that fires becomes a
 * Signal with a stable `rule` name and moves its dimension's rule score by `points`;
 * caps (external link, 6+ hashtags, over length) bound algorithm fit whoever grades.
 */

export interface RuleOutcome {
  features: TextFeatures;
  rubric: Rubric;
  archetype: HookArchetype;
  archetypeNote: string;
  format: FormatAssessment;
  hits: RuleHit[];
  /** Each dimension's deterministic score: its base plus the points of the rules that fired. */
  scores: Breakdown;
  caps: Partial<Record<Dimension, Cap>>;
  /** The post's length as the platform counts it (RuleContext `counted`). */
  counted: number;
}

/** Where each dimension starts before rules move it. */
export const RULE_BASE: Breakdown = {
  hook: 55,
  algorithmFit: 70,
  specificity: 50,
  structure: 60,
  voice: 60,
  engagement: 50,
};

export function runRules(input: ScoreInput): RuleOutcome {
  const f = extractFeatures(input.post);
  const rubric = rubricFor(input.platform);
  const media: MediaKind = input.media ?? 'none';
  const archetype = archetypeOf(f.hook, f.hookTokens, f.hookWords);
  const format = assessFormat(media, rubric);
  const ctx: RuleContext = {
    f,
    input,
    rubric,
    archetype,
    format,
    hasLink: input.hasExternalLink ?? f.links > 0,
    hashtags: input.hashtagCount ?? f.hashtags,
    counted: input.sentLength ?? countedLength(rubric.counting, input.post),
    per100: (n) => (f.words === 0 ? 0 : (100 * n) / f.words),
  };
  const hits: RuleHit[] = [];
  const caps: Partial<Record<Dimension, Cap>> = {};
  const capAt = (dimension: Dimension, max: number, rule: string) => {
    const current = caps[dimension];
    if (!current || max < current.max) caps[dimension] = { max, rule };
  };
  algorithmRules(ctx, hits, capAt);
  hookRules(ctx, hits);
  structureRules(ctx, hits);
  writingRules(ctx, hits);
  qualityRules(ctx, hits);
  genericTextRules(ctx, hits);

  const scores = { ...RULE_BASE };
  for (const h of hits) {
    // Text-quality points apply to every dimension (rules-quality.ts).
    if (QUALITY_RULES.has(h.rule)) for (const d of Object.keys(scores) as Dimension[]) scores[d] += h.points;
    else scores[h.dimension] += h.points;
  }
  for (const d of Object.keys(scores) as Dimension[]) scores[d] = clamp(scores[d]);
  return {
    features: f,
    rubric,
    archetype,
    archetypeNote: ARCHETYPE_NOTES[archetype],
    format,
    hits,
    scores,
    caps,
    counted: ctx.counted,
  };
}

/**
 * The scoring front door: the only module of `scoring/` the rest of the service imports
 * (test/foundation/folder-layers.test.ts holds that). Inside, the work is grouped by job:
 * `rules/` (the deterministic rules, rubrics and formats), `judge/` (the offline heuristic
 * judge and the judge interface), `learned/` (the trained model and its explanations),
 * `personal/` (per-author models), `writers/` (the offline rewrite, generate, plan and voice),
 * `text/` (text analysis: tokens, phrases, tags, themes, facts) and `model/` (the language-model
 * client and engine). `scorer.ts` puts rules, judge and model together into one ScoreResult;
 * `engine.ts` chooses the offline engine or the model engine.
 */
import type { Platform } from '../domain/enums.ts';
import { hasThreads } from '../platforms/profiles.ts';
import { rubricFor } from './rules/rubrics.ts';
import { threadOfParagraphs } from './writers/rewrite-thread.ts';

export { CONCEPT_DESCRIPTIONS, CONCEPTS } from './concepts.ts';
export type { Engine } from './engine.ts';
export { openEngine } from './engine.ts';
export type { WrittenBy } from './engine-interface.ts';
export { type EngineNotice, engineNotice } from './engine-notice.ts';
export { DIMENSION_WEIGHTS, type ScoreModel, scoreModel } from './learned/model.ts';
export { personalScore } from './personal/apply.ts';
export {
  FEATURE_NAMES,
  featureLabel,
  globalWeights,
  offlineFeaturesOf,
  offlineScored,
  reportable,
} from './personal/features.ts';
export {
  fitPersonalModel,
  type MeasuredEffect,
  MIN_EFFECT_POSTS,
  MIN_HISTORY_POSTS,
  PERSONAL_SCHEMA,
  type PersonalModel,
  SHRINK_POSTS,
} from './personal/fit.ts';
export { effectSentence, toldEffects } from './personal/told-effects.ts';
export { RUBRICS, rubricFor } from './rules/rubrics.ts';
export {
  type ScoredPost,
  scoreCacheVersion,
  scoreHeuristically,
  scorePost,
  scorePostKeeping,
} from './scorer.ts';
export { machineTells } from './text/machine-tells.ts';
export { inSubmittedText } from './text/spans.ts';
export { extractFeatures, normalizePost } from './text/text-features.ts';
export type {
  BrandContext,
  PlanItem,
  RewriteResult,
  ScoreInput,
  ScoreResult,
  VoiceContext,
  VoiceProfile,
} from './types.ts';
export type { GenerateContext } from './writers/generate-offline.ts';
export { type DraftableItem, factsByItem, MAX_FACTS, planItemDrafts } from './writers/plan-item-facts.ts';
export { formatsFor, toPlanItems } from './writers/plan-offline.ts';

/**
 * A draft as it would be published on `platform`: one post, or, when it is longer than one
 * post on a platform with threads, a thread whose every part fits (first the post, then the
 * replies): one part per paragraph where each fits, so a draft of several points gives each its
 * own part (writers/rewrite-thread.ts).
 */
export function draftParts(platform: Platform, draft: string): [string, ...string[]] {
  const { maxLength } = rubricFor(platform);
  if (!hasThreads(platform) || draft.length <= maxLength) return [draft];
  const [post = draft, ...thread] = threadOfParagraphs(platform, draft, maxLength);
  return [post, ...thread];
}

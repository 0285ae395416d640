import type { Ctx } from '../../context.ts';
import {
  FEATURE_NAMES,
  globalWeights,
  offlineFeaturesOf,
  personalScore,
  type ScoredPost,
  type ScoreModel,
  type ScoreResult,
  scoreModel,
} from '../../scoring/index.ts';
import { loadPersonal, type StoredPersonal } from './personal-models.ts';

/**
 * What the intelligence verbs call: the account's personal model (unless the request opts
 * out), its version for the cache key, and the `personal` part added to a global score.
 */

const weightsOf = new WeakMap<ScoreModel, Float64Array>();

/** The model to personalise with, or null (opted out, or not enough history). */
export async function personalFor(
  ctx: Ctx,
  personalize: boolean | undefined,
): Promise<StoredPersonal | null> {
  return personalize === false ? null : loadPersonal(ctx);
}

/** Part of a cache key: a refit (a new version) expires personalised results. */
export const personalKey = (personal: StoredPersonal | null) =>
  personal ? `personal.${personal.version}` : null;

/**
 * The global result with `personal` added when there is a model, read from the scored post's
 * own rules and features (the post is scored once).
 */
export function withPersonal(scored: ScoredPost, personal: StoredPersonal | null): ScoreResult {
  const { result, rules } = scored;
  if (!personal) return result;
  const global = scoreModel();
  let weights = weightsOf.get(global);
  if (!weights) {
    weights = globalWeights(global);
    weightsOf.set(global, weights);
  }
  const x = offlineFeaturesOf(rules, scored.x);
  return {
    ...result,
    personal: personalScore(
      personal.model,
      x,
      {
        overall: result.overall,
        weights,
        scale: global.scale,
        names: FEATURE_NAMES,
      },
      scored.spansFor,
    ),
  };
}

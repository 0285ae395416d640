import type { Call, Ctx } from '../../context.ts';
import { DEFAULT_PLATFORM, textLimitFor } from '../../platforms/profiles.ts';
import {
  draftParts,
  type EngineNotice,
  engineNotice,
  formatsFor,
  type GenerateContext,
  inSubmittedText,
  normalizePost,
  type PlanItem,
  type RewriteResult,
  type ScoreInput,
  type ScoreResult,
  scorePostKeeping,
  toPlanItems,
  type WrittenBy,
} from '../../scoring/index.ts';
import { type Cached, cached, cachedJson, cacheKey } from '../account/metered.ts';
import { accountZone } from '../account/settings.service.ts';
import { brandContext } from '../brands/brands.service.ts';
import type { StoredPersonal } from '../history/personal-models.ts';
import { personalFor, personalKey, withPersonal } from '../history/personal-score.ts';
import { queueWithSlots } from '../queues/queue-assign.ts';
import { voiceContext } from '../voices/voices.service.ts';
import type { GenerateRequest, PlanRequest, ScoreRequest } from './intelligence.schemas.ts';
import { planChannel } from './plan-channel.ts';
import { type PlannedItem, withEvidence } from './plan-evidence.ts';

/**
 * The intelligence verbs REST routes, MCP tools and the posts area call. Each is one
 * model-backed operation: cached per normalised input (a hit is free), otherwise metered
 * against the monthly quota, refunded when the engine fails. Every text any verb returns
 * with a score was scored by the one scorer, through the same cache, so `after` and each
 * candidate's score are exactly what POST /v1/score returns for that text.
 */

/**
 * The normalised score input: the text canonicalised, the platform defaulted, and, for a post
 * over the limit as sent whose count normalising changed, the length as sent (the limit is
 * counted on what is sent: ScoreInput.sentLength), so the over-limit signal says the number the
 * editor shows. Under the limit no score depends on that count, so the same text sent with other
 * white space stays one cached input (a hit is free).
 */
export function normalizeScoreInput(input: ScoreRequest): ScoreInput {
  const { personalize: _personalize, ...rest } = input;
  const platform = input.platform ?? DEFAULT_PLATFORM;
  const post = normalizePost(input.post);
  const limit = post === input.post ? null : textLimitFor(platform, 'post');
  const sent = limit ? limit.length(input.post) : undefined;
  return {
    ...rest,
    post,
    platform,
    ...(sent !== undefined && sent > limit!.max && sent !== limit!.length(post) ? { sentLength: sent } : {}),
  };
}

/**
 * Scores through the cache; `metered` false when an enclosing operation already paid. With a
 * personal model the result carries `personal`, and the key its version (a refit expires it).
 */
async function scoreCached(
  ctx: Ctx,
  input: ScoreInput,
  metered: boolean,
  personal: StoredPersonal | null,
): Promise<Cached<ScoreResult>> {
  const payload = personal ? { input, personal: personalKey(personal) } : input;
  return cached(ctx, cacheKey(ctx, 'score', payload), { metered }, async () => ({
    ...withPersonal(await scorePostKeeping(input, ctx.deps.engine.judge), personal),
    engine: engineNotice(ctx.deps.engine.id),
  }));
}

/**
 * The cache holds the score of the normalised text; a signal's spans point into the text as the
 * caller sent it, so they are moved back when the two differ (a cache hit of a post sent as
 * normalised is sent as is).
 */
async function scoreRequest({ ctx, input }: Call<ScoreRequest>): Promise<Cached<ScoreResult>> {
  const normalized = normalizeScoreInput(input);
  const scored = await scoreCached(ctx, normalized, true, await personalFor(ctx, input.personalize));
  if (normalized.post === input.post) return scored;
  const value = inSubmittedText(scored.value(), input.post, normalized.post);
  return { json: JSON.stringify(value), value: () => value };
}

/**
 * POST /v1/score as JSON, for the route: a cache hit is sent without re-serialising. The JSON
 * is a ScoreResult's (test/intelligence/score-json-shape.test.ts holds it to the response schema).
 */
export async function scoreTextJson(call: Call<ScoreRequest>): Promise<string> {
  return (await scoreRequest(call)).json;
}

/** Scores a post: the verb behind POST /v1/score, POST /v1/posts/{id}/score and score_post. */
export async function scoreText(call: Call<ScoreRequest>): Promise<ScoreResult> {
  return (await scoreRequest(call)).value();
}

/** Scoring a text inside another operation: same cache, no extra charge. */
async function scoreInside(
  ctx: Ctx,
  input: ScoreInput,
  personal: StoredPersonal | null,
): Promise<ScoreResult> {
  return (await scoreCached(ctx, input, false, personal)).value();
}

/**
 * Rewrites honestly: `before` scores the original, the engine edits without inventing facts,
 * and `after` is the score of the rewrite as it would be published, with the same context
 * (text-derived overrides, `hasExternalLink` and `hashtagCount`, are re-derived from the
 * rewrite), reported as is, lower or not. A link moved out of the body comes back as
 * `firstComment`; a post split into a thread (platformB) comes back as its first part in
 * `rewrite` and the replies in `thread`, and `after` scores that first part, the post the feed
 * ranks (the replies hang under it).
 */
export async function rewriteText({ ctx, input }: Call<ScoreRequest>): Promise<RewriteResult> {
  const original = normalizeScoreInput(input);
  const personal = await personalFor(ctx, input.personalize);
  const payload = personal ? { original, personal: personalKey(personal) } : original;
  const json = await cachedJson(ctx, cacheKey(ctx, 'rewrite', payload), { metered: true }, async () => {
    const before = await scoreInside(ctx, original, personal);
    const {
      rewrite,
      changes,
      thread = [],
      firstComment = null,
    } = await ctx.deps.engine.rewrite(original, before);
    const { hasExternalLink: _link, hashtagCount: _tags, sentLength: _sent, ...context } = original;
    const after = await scoreInside(ctx, { ...context, post: normalizePost(rewrite) }, personal);
    return {
      rewrite: normalizePost(rewrite),
      thread: thread.map(normalizePost),
      firstComment: firstComment === null ? null : normalizePost(firstComment),
      changes,
      before,
      after,
      engine: engineNotice(ctx.deps.engine.id),
    } satisfies RewriteResult;
  });
  return JSON.parse(json) as RewriteResult;
}

/** Loads brand and voice (400 at the field when not the caller's) before anything is charged. */
async function conditioning(
  ctx: Ctx,
  refs: { brandId?: string; voiceId?: string },
): Promise<{ context: GenerateContext; versions: (string | null)[] }> {
  const [b, v] = await Promise.all([
    refs.brandId ? brandContext(ctx, refs.brandId) : null,
    refs.voiceId ? voiceContext(ctx, refs.voiceId) : null,
  ]);
  return {
    context: { brand: b?.brand ?? null, voice: v?.voice ?? null },
    // Editing a brand or voice changes its version, so cached results conditioned on it expire.
    versions: [b?.version ?? null, v?.version ?? null],
  };
}

export interface GenerateResult {
  candidates: { post: string; thread: string[]; score: ScoreResult; writtenBy: WrittenBy }[];
  engine?: EngineNotice;
}

/** The cached result's shape: a result cached before candidates said who wrote them is not reused. */
const GENERATE_SHAPE = 'written-by';
/** Likewise for plans: a plan cached before it said who planned it is not reused. */
const PLAN_SHAPE = 'written-by';

/**
 * 1-3 drafts, each scored by the same scorer, best first. On a platform with threads a draft
 * longer than one post comes back as a thread: `post` is its first part (what is scored, the
 * post the feed ranks) and `thread` the replies. Each says which engine wrote it (`writtenBy`).
 */
export async function generatePosts({ ctx, input }: Call<GenerateRequest>): Promise<GenerateResult> {
  const { context, versions } = await conditioning(ctx, input);
  const request = {
    ...input,
    brief: normalizePost(input.brief),
    platform: input.platform ?? DEFAULT_PLATFORM,
  };
  const personal = await personalFor(ctx, input.personalize);
  const key = cacheKey(
    ctx,
    'generate',
    personal
      ? { request, versions, shape: GENERATE_SHAPE, personal: personalKey(personal) }
      : { request, versions, shape: GENERATE_SHAPE },
  );
  const json = await cachedJson(ctx, key, { metered: true }, async () => {
    const drafts = await ctx.deps.engine.generate(request, context);
    // One draft per text (two engines can write the same), the first one's word on who wrote it.
    const posts = drafts.filter((d, i) => d.text && drafts.findIndex((e) => e.text === d.text) === i);
    const scoreContext = {
      platform: request.platform,
      authorName: request.authorName,
      authorHeadline: request.authorHeadline,
      followerBand: request.followerBand,
      media: request.media,
    };
    const candidates = await Promise.all(
      posts.map(async ({ text, writtenBy }) => {
        // More than one post's worth on a platform with threads: a thread, every part within the limit.
        const [post, ...thread] = draftParts(request.platform, text);
        return {
          post,
          thread,
          score: await scoreInside(ctx, { ...scoreContext, post }, personal),
          writtenBy,
        };
      }),
    );
    // Stable sort: equal scores keep the engine's order.
    candidates.sort((a, b) => b.score.overall - a.score.overall);
    return { candidates, engine: engineNotice(ctx.deps.engine.id) } satisfies GenerateResult;
  });
  return JSON.parse(json) as GenerateResult;
}

/**
 * Where a plan's times come from, read before anything is charged: the channel named (400 at
 * `channelId` when it is not the caller's, or is another platform's), its queue when it has
 * slots, and the writer's zone (the queue's, else the account's).
 */
async function planPlace(ctx: Ctx, input: PlanRequest) {
  const { channel, platform } = await planChannel(ctx, input.channelId, input.platform);
  const queue = channel ? await queueWithSlots(ctx.deps.db, channel.id) : null;
  const zone = queue?.timezone ?? (await accountZone(ctx.deps.db, ctx.caller.accountId));
  return { platform, place: { zone, queue } };
}

/**
 * 1-14 outline items; brand themes add pillars, and a cadence labels each slot's day. The
 * outlines are cached (the channel is no part of them); what the author's history and the
 * channel's queue say about them (plan-evidence.ts) is read fresh on every call, so an import
 * or a post taking a slot changes the next plan at once.
 */
export async function planPosts({
  ctx,
  input,
}: Call<PlanRequest>): Promise<{ items: PlannedItem[]; writtenBy: WrittenBy; engine?: EngineNotice }> {
  const { platform, place } = await planPlace(ctx, input);
  const { context, versions } = await conditioning(ctx, input);
  const { channelId: _channel, ...asked } = input;
  const request = { ...asked, brief: normalizePost(input.brief), platform };
  const key = cacheKey(ctx, 'plan', { request, versions, shape: PLAN_SHAPE });
  const json = await cachedJson(ctx, key, { metered: true }, async () => {
    const { outlines, writtenBy } = await ctx.deps.engine.plan(request, context);
    return {
      items: toPlanItems(outlines.slice(0, request.count ?? 5), request.cadence),
      writtenBy,
      engine: engineNotice(ctx.deps.engine.id),
    };
  });
  const outlined = JSON.parse(json) as { items: PlanItem[]; writtenBy: WrittenBy; engine?: EngineNotice };
  const { items } = await withEvidence(
    ctx,
    request.platform,
    outlined.items,
    formatsFor,
    Boolean(request.cadence),
    place,
  );
  return { items, writtenBy: outlined.writtenBy, engine: outlined.engine };
}

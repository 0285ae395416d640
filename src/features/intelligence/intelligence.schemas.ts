import { z } from 'zod';
import { TextSpan } from '../../api/schemas.ts';
import {
  Cadence,
  Concept,
  Dimension,
  DraftCheck,
  FollowerBand,
  HookArchetype,
  MediaKind,
  Platform,
} from '../../domain/enums.ts';
import { defaultPlatformProse, threadedPlatformsProse } from '../../platforms/profile-prose.ts';
import { Personalize, PersonalScore } from '../history/personal.schemas.ts';

/** Wire shapes of CONTRACT.md section 2 for score, rewrite, generate and plan. */

/** Text inputs: must hold something besides white space; bounded so one request stays cheap. */
export const nonBlank = (max: number, what: string) =>
  z
    .string()
    .max(max)
    .refine((s) => s.trim().length > 0, `${what} must not be empty`);

const Name = z.string().trim().max(200);
const Headline = z.string().trim().max(500);

export const ScoreRequest = z
  .object({
    post: nonBlank(40_000, 'post').describe('Full post text to grade'),
    platform: Platform.optional().describe(`Default ${defaultPlatformProse()}`),
    authorName: Name.optional(),
    authorHeadline: Headline.optional(),
    followerBand: FollowerBand.optional(),
    media: MediaKind.optional().describe('Drives the format multiplier; default `none` (text only)'),
    hasExternalLink: z
      .boolean()
      .optional()
      .describe('Derived from the text when omitted; an external link caps algorithm fit'),
    hashtagCount: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .optional()
      .describe('Derived from the text when omitted; six or more caps algorithm fit'),
    dayOfWeek: z.number().int().min(0).max(6).optional().describe('Planned publish day, Sunday=0'),
    hourLocal: z
      .number()
      .int()
      .min(0)
      .max(23)
      .optional()
      .describe("Planned publish hour, author's local time"),
    personalize: Personalize,
  })
  .strict()
  .meta({ id: 'ScoreRequest' });
export type ScoreRequest = z.output<typeof ScoreRequest>;

const Grade = z.number().min(0).max(100);

/** An extension of the contract's shapes: which engine answered, said plainly (engine-notice.ts). */
export const EngineInfo = z
  .object({
    id: z.string().describe('`heuristic` (offline) or `<provider>:<model>`'),
    offline: z.boolean().describe('True when no language model is configured'),
    note: z.string().describe('What the engine did, and how to configure a model when offline'),
  })
  .meta({ id: 'EngineInfo' });
const engine = EngineInfo.optional().describe('Which engine answered (always present in this API)');

export const Signal = z
  .object({
    dimension: Dimension,
    concept: Concept.describe(
      'The writer-facing concept the signal speaks for; a result has at most one signal per concept (`/v1/meta` lists them)',
    ),
    impact: z.enum(['positive', 'negative']),
    weight: z.number().int().min(1).max(5),
    label: z.string(),
    detail: z.string().describe('One sentence'),
    rule: z
      .string()
      .optional()
      .describe('Stable name of the rule or learned feature that decided the signal'),
    spans: z
      .array(TextSpan)
      .describe(
        'Where in the submitted `post` the signal points (UTF-16 offsets); empty when it is about the whole post',
      ),
  })
  .meta({ id: 'Signal' });

export const ScoreResult = z
  .object({
    schema: z.string().describe('Score schema version'),
    overall: Grade.describe('Weighted sum of the breakdown with the weights /v1/meta publishes'),
    breakdown: z.object({
      hook: Grade,
      algorithmFit: Grade,
      specificity: Grade,
      structure: Grade,
      voice: Grade,
      engagement: Grade,
    }),
    verdict: z.string().describe('One-line verdict'),
    signals: z.array(Signal).describe('Ranked: heaviest first'),
    hookArchetype: HookArchetype,
    hookArchetypeNote: z.string().describe('Benchmark note for the detected archetype'),
    formatMultiplier: z.number().describe('Reach multiplier implied by the media format'),
    formatNote: z.string(),
    personal: PersonalScore.optional(),
    engine,
  })
  .meta({ id: 'ScoreResult' });
export type ScoreResultWire = z.output<typeof ScoreResult>;

export const RewriteChange = z
  .object({ dimension: Dimension, note: z.string() })
  .meta({ id: 'RewriteChange' });

export const RewriteResult = z
  .object({
    rewrite: z.string().describe("The post's text; when it became a thread, the thread's first part"),
    thread: z
      .array(z.string())
      .describe(
        `The replies that follow the post, in order, when a post over the limit became a thread (on a platform with threads: ${threadedPlatformsProse()}); each within the limit. Empty otherwise. Save them as the post’s \`thread\``,
      ),
    firstComment: z
      .string()
      .nullable()
      .describe(
        'What to publish as the first comment: the links the rewrite moved out of the body, one a line; null when none moved. Save it as the post’s `firstComment`',
      ),
    changes: z.array(RewriteChange),
    before: ScoreResult.describe('Score of the original'),
    after: ScoreResult.describe(
      'Score of the rewrite as it would be published (its `rewrite` text: on a thread, the first part, which the feed ranks), exactly as scoring it returns',
    ),
    engine,
  })
  .meta({ id: 'RewriteResult' });

const Brief = nonBlank(5_000, 'brief');
const RefId = z.string().min(1).max(64);

export const GenerateRequest = z
  .object({
    brief: Brief.describe('What the post is about'),
    platform: Platform.optional(),
    authorName: Name.optional(),
    authorHeadline: Headline.optional(),
    followerBand: FollowerBand.optional(),
    media: MediaKind.optional(),
    archetype: HookArchetype.optional().describe('Hook archetype for the first candidate'),
    count: z
      .number()
      .int()
      .min(1)
      .max(3)
      .optional()
      .describe(
        'How many drafts, 1-3 (default 1). Without a model configured, a brief that gives news, thanks or congratulations gets at most two.',
      ),
    brandId: RefId.optional().describe('Must belong to the caller'),
    voiceId: RefId.optional().describe('Must belong to the caller'),
    personalize: Personalize,
  })
  .strict()
  .meta({ id: 'GenerateRequest' });
export type GenerateRequest = z.output<typeof GenerateRequest>;

/**
 * An extension of the contract's shapes: which engine wrote a draft. With a model configured, a
 * model draft that fails the checks on the brief twice is replaced by an offline one, and says so.
 */
export const WrittenBy = z
  .object({
    engine: z
      .enum(['model', 'offline'])
      .describe('`model`: the configured language model; `offline`: the deterministic offline engine'),
    failedCheck: DraftCheck.nullable().describe(
      "When the offline engine stands in for a model draft: the check the model's draft failed after its one retry (numbers, names, invented, labels, ai_tells, bait, blanks, length, structure; for a plan also topics); null otherwise",
    ),
    note: z.string().describe('One plain sentence saying who wrote it, and why when it fell back'),
  })
  .meta({ id: 'WrittenBy' });

export const GenerateResult = z
  .object({
    candidates: z
      .array(
        z.object({
          post: z.string().describe("The draft; when it became a thread, the thread's first part"),
          thread: z
            .array(z.string())
            .describe(
              `The replies after \`post\` when the draft holds more than one post on a platform with threads (${threadedPlatformsProse()}), each within the limit; empty otherwise`,
            ),
          score: ScoreResult.describe('Score of `post`'),
          writtenBy: WrittenBy,
        }),
      )
      .describe('Sorted by score.overall, best first'),
    engine,
  })
  .meta({ id: 'GenerateResult' });

export const PlanRequest = z
  .object({
    brief: Brief.describe('Themes, goals, topics'),
    platform: Platform.optional(),
    count: z.number().int().min(1).max(14).optional().describe('1-14 slots, default 5'),
    authorName: Name.optional(),
    authorHeadline: Headline.optional(),
    followerBand: FollowerBand.optional(),
    cadence: Cadence.optional().describe(
      'Each angle then starts with its publishing day, e.g. "Mon, week 1:"',
    ),
    brandId: RefId.optional().describe("Must belong to the caller; its themes add to the brief's topics"),
    voiceId: RefId.optional().describe('Must belong to the caller'),
    channelId: RefId.optional().describe(
      "Must belong to the caller (and be of `platform` when both are given; `platform` defaults to the channel's): the channel the posts go to. When its queue has slots, each item's `when` is one of the queue's next free slots, those in the author's best windows first, and the times are in the queue's zone",
    ),
  })
  .strict()
  .meta({ id: 'PlanRequest' });
export type PlanRequest = z.output<typeof PlanRequest>;

export const PlanItem = z
  .object({
    slot: z.number().int().min(1).describe('1-based ordinal'),
    pillar: z.string(),
    hook: z.string(),
    angle: z.string(),
    format: MediaKind,
    archetype: HookArchetype,
    evidence: z
      .string()
      .nullable()
      .describe(
        'What the item rests on: the author\'s own figures when a history is imported ("Your 6 posts that mention “handovers” earned 1.8x your median."), else that it uses published figures; and why its `when`, in the writer\'s zone named in words ("Tuesday 09:00-12:00 Central European Time is one of your best windows: ...")',
      ),
    when: z
      .number()
      .int()
      .nullable()
      .describe(
        "The instant the item suggests (epoch ms): with `channelId` and a queue, one of the queue's next free slots (in the author's best windows first); otherwise the next start of one of the author's best weekly windows, read in the account's time zone; null with neither a history nor a queue",
      ),
  })
  .meta({ id: 'PlanItem' });

export const PlanResult = z
  .object({
    items: z.array(PlanItem),
    writtenBy: WrittenBy.describe(
      "Which engine planned the items: with a model configured, a plan that fails the checks on the brief twice is the offline engine's, and says which check",
    ),
    engine,
  })
  .meta({ id: 'PlanResult' });

import { z } from 'zod';
import { Pagination, PaginationQuery } from '../../api/schemas.ts';
import { HookArchetype, MediaKind, Platform } from '../../domain/enums.ts';
import { nonBlank, PlanItem } from '../intelligence/intelligence.schemas.ts';
import { Post } from '../posts/core/post.schemas.ts';

/** Saved plans (issue 34 item 3): a plan result kept with its brief, turned into drafts later. */

const RefId = z.string().min(1).max(64);

export const SavedPlanItem = PlanItem.extend({
  postId: z
    .string()
    .nullable()
    .describe('The draft "turn into drafts" made from this item; null until then (or once it is deleted)'),
}).meta({ id: 'SavedPlanItem' });

export const SavedPlan = z
  .object({
    id: z.string(),
    title: z.string(),
    brief: z.string().describe('The brief the plan was made from: where each draft takes its facts'),
    platform: Platform,
    channelId: z.string().nullable().describe('The channel the plan was made for, when one was named'),
    items: z.array(SavedPlanItem).describe('In slot order'),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'SavedPlan' });
export type SavedPlan = z.output<typeof SavedPlan>;

const MAX_ITEMS = 14;
const Line = (max: number) => z.string().trim().min(1).max(max);
/** Far past any plan; keeps a stored instant a real date. */
const LATEST = Date.UTC(9999, 11, 31);

/** A plan item as a request carries it: POST /v1/plan's PlanItem, closed and bounded. */
export const PlanItemInput = z
  .object({
    slot: z.number().int().min(1).max(MAX_ITEMS),
    pillar: Line(200),
    hook: Line(1_000),
    angle: Line(2_000),
    format: MediaKind,
    archetype: HookArchetype,
    evidence: Line(1_000).nullable(),
    when: z.number().int().min(0).max(LATEST).nullable(),
  })
  .strict();

export const SavePlanRequest = z
  .object({
    title: z.string().trim().min(1).max(200).optional().describe("Default: the brief's first words"),
    brief: nonBlank(5_000, 'brief').describe('The brief sent to POST /v1/plan'),
    platform: Platform.optional().describe('The platform the plan was made for; default the plan default'),
    channelId: RefId.optional().describe('Must belong to the caller: the channel drafts go to'),
    items: z
      .array(PlanItemInput)
      .min(1)
      .max(MAX_ITEMS)
      .refine((items) => new Set(items.map((i) => i.slot)).size === items.length, 'Each slot must differ')
      .describe("POST /v1/plan's `items`, as returned (or edited)"),
  })
  .strict()
  .meta({ id: 'SavePlanRequest' });
export type SavePlanRequest = z.output<typeof SavePlanRequest>;

export const PlanListQuery = PaginationQuery;
export const SavedPlanResult = z.object({ plan: SavedPlan }).meta({ id: 'SavedPlanResult' });
export const SavedPlanListResult = z
  .object({ plans: z.array(SavedPlan).describe('Newest first'), pagination: Pagination })
  .meta({ id: 'SavedPlanListResult' });

export const PlanDraftsRequest = z
  .object({
    slots: z
      .array(z.number().int().min(1).max(MAX_ITEMS))
      .min(1)
      .max(MAX_ITEMS)
      .optional()
      .describe('Which items, by slot; default every item of the plan'),
    channelId: RefId.optional().describe("Must belong to the caller; default the plan's channel"),
    schedule: z
      .boolean()
      .optional()
      .describe(
        "true: each draft is scheduled at its item's `when` (needs a channel and the publish scope); an item without a future `when` stays a draft. Default false: drafts only",
      ),
  })
  .strict()
  .meta({ id: 'PlanDraftsRequest' });
export type PlanDraftsRequest = z.output<typeof PlanDraftsRequest>;

export const PlanDraftsResult = z
  .object({
    plan: SavedPlan.describe("The plan, each item's `postId` naming its draft"),
    posts: z
      .array(Post)
      .describe('The post of each item asked for, in slot order: made now, or the one made before'),
    made: z.number().int().describe('How many of `posts` were made by this call'),
  })
  .meta({ id: 'PlanDraftsResult' });

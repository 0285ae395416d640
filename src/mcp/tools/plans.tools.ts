import { z } from 'zod';
import { DeleteResult, IdParams } from '../../api/schemas.ts';
import { turnIntoDrafts } from '../../features/plans/plan-drafts.service.ts';
import {
  PlanDraftsRequest,
  PlanDraftsResult,
  PlanListQuery,
  type SavedPlan,
  SavedPlanListResult,
  SavedPlanResult,
  SavePlanRequest,
} from '../../features/plans/plans.schemas.ts';
import { deletePlan, getPlan, listPlans, savePlan } from '../../features/plans/plans.service.ts';
import { changes, creates, defineTool, formatWhen, plural, publishes, readOnly } from '../tool.ts';

const PlanId = z.object({ id: IdParams.shape.id.describe('The saved plan id (pln_…)') }).strict();

const describePlan = (plan: SavedPlan) =>
  `${plan.id} "${plan.title}": ${plural(plan.items.length, 'item')}, ${plural(
    plan.items.filter((i) => i.postId).length,
    'draft',
  )} made`;

export const planTools = [
  defineTool({
    name: 'save_plan',
    title: 'Save a plan',
    description:
      "Keeps a plan_week result with the brief it was made from (and optionally the channelId its drafts go to), so it can be read again later and turned into drafts. Pass plan_week's items as returned and the same brief. Free.",
    input: SavePlanRequest,
    output: SavedPlanResult,
    annotations: creates,
    scope: 'write',
    run: async (ctx, input) => ({ plan: await savePlan({ ctx, input }) }),
    summarize: ({ plan }) => `Saved plan ${describePlan(plan)}.`,
  }),
  defineTool({
    name: 'list_plans',
    title: 'List saved plans',
    description:
      "Lists the account's saved plans, newest first, in pages of `limit` (1-100, default 50) from `offset`; `pagination.hasMore` says whether to fetch the next page. Free.",
    input: PlanListQuery.strict(),
    output: SavedPlanListResult,
    annotations: readOnly,
    scope: 'read',
    run: (ctx, input) => listPlans({ ctx, input }),
    summarize: ({ plans, pagination }) =>
      `${plural(plans.length, 'saved plan')}${pagination.hasMore ? `; more after offset ${pagination.offset + plans.length}` : ''}.${plans
        .slice(0, 10)
        .map((plan) => `\n- ${describePlan(plan)}`)
        .join('')}`,
  }),
  defineTool({
    name: 'get_plan',
    title: 'Get a saved plan',
    description:
      'Reads one saved plan by id: its brief, channel and items (pillar, hook, angle, format, evidence, suggested time, and the draft made from each). Free.',
    input: PlanId,
    output: SavedPlanResult,
    annotations: readOnly,
    scope: 'read',
    run: async (ctx, input) => ({ plan: await getPlan({ ctx, input }) }),
    summarize: ({ plan }) =>
      `Plan ${describePlan(plan)}.${plan.items.map((i) => `\n${i.slot}. [${i.pillar}] ${i.hook}`).join('')}`,
  }),
  defineTool({
    name: 'delete_plan',
    title: 'Delete a saved plan',
    description:
      'Deletes a saved plan by id (from list_plans or save_plan) when the person no longer wants it. Drafts already made from its items are kept: they are posts of their own. Free.',
    input: PlanId,
    output: DeleteResult,
    annotations: changes(true, true),
    scope: 'write',
    run: (ctx, input) => deletePlan({ ctx, input }),
    summarize: () => 'Deleted the saved plan; drafts made from it are kept.',
  }),
  defineTool({
    name: 'plan_to_drafts',
    title: 'Turn a saved plan into drafts',
    description:
      "Makes one post per item of a saved plan (all, or the slots named): the item's hook, then the brief's facts for that item, never the whole brief; on a platform with threads a long draft is a thread. With schedule: true each post is scheduled on its item's suggested time (when) on the plan's channel (or channelId) and then goes out publicly at that time; without it they stay drafts to edit. An item already turned into a post that still exists is answered with that post, never made twice. Free.",
    input: PlanId.extend(PlanDraftsRequest.shape).strict(),
    output: PlanDraftsResult,
    annotations: publishes(false, true),
    scope: 'write',
    idempotentAs: { method: 'POST', url: '/v1/plans/{id}/drafts', status: 200 },
    run: (ctx, { id, ...request }) => turnIntoDrafts({ ctx, input: { id, request } }),
    summarize: ({ plan, posts, made }) =>
      `${plural(made, 'post')} made from plan ${plan.id}, ${plural(posts.length - made, 'kept')} from before.${posts
        .map((p) => `\n- ${p.id} ${p.status}${p.scheduledFor ? ` for ${formatWhen(p.scheduledFor)}` : ''}`)
        .join('')}`,
  }),
];

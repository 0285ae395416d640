import { and, eq } from 'drizzle-orm';
import type { Call } from '../../context.ts';
import { plans, type StoredPlanItem } from '../../db/schema/index.ts';
import type { Platform } from '../../domain/enums.ts';
import { newId } from '../../lib/ids.ts';
import { planChannel } from '../intelligence/plan-channel.ts';
import type { PageRequest } from '../pagination.ts';
import { ownedNotFound, pageOwned, requireOwned } from '../tenancy.ts';
import type { SavedPlan, SavePlanRequest } from './plans.schemas.ts';

/**
 * Saved plans: POST /v1/plan's result kept with the brief it came from, so it outlives the page
 * and its items can become drafts (plan-drafts.service.ts) with the brief's facts.
 */

type PlanRow = typeof plans.$inferSelect;

export const toSavedPlan = (row: PlanRow): SavedPlan => ({
  id: row.id,
  title: row.title,
  brief: row.brief,
  platform: row.platform as Platform,
  channelId: row.channelId,
  items: row.items as SavedPlan['items'],
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const TITLE_CHARS = 60;

/** The brief's first line, cut at a word within TITLE_CHARS: a title the writer recognises. */
export function defaultTitle(brief: string): string {
  const line = brief.trim().split('\n')[0]!.replace(/\s+/g, ' ').trim();
  if (line.length <= TITLE_CHARS) return line;
  const cut = line.slice(0, TITLE_CHARS + 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > 20 ? cut.slice(0, space) : line.slice(0, TITLE_CHARS)).replace(/[\s,;:.-]+$/, '')}…`;
}

export async function savePlan({ ctx, input }: Call<SavePlanRequest>): Promise<SavedPlan> {
  const { channel, platform } = await planChannel(ctx, input.channelId, input.platform);
  const items: StoredPlanItem[] = [...input.items]
    .sort((a, b) => a.slot - b.slot)
    .map((i) => ({
      slot: i.slot,
      pillar: i.pillar,
      hook: i.hook,
      angle: i.angle,
      format: i.format,
      archetype: i.archetype,
      evidence: i.evidence,
      when: i.when,
      postId: null,
    }));
  const now = ctx.deps.clock.now();
  const [row] = await ctx.deps.db
    .insert(plans)
    .values({
      id: newId('plan'),
      accountId: ctx.caller.accountId,
      title: input.title ?? defaultTitle(input.brief),
      brief: input.brief,
      platform,
      channelId: channel?.id ?? null,
      items,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return toSavedPlan(row!);
}

/** Newest first, a page at a time. */
export async function listPlans({ ctx, input }: Call<PageRequest>) {
  const page = await pageOwned(ctx, plans, input);
  return { plans: page.items.map(toSavedPlan), pagination: page.pagination };
}

export async function getPlan({ ctx, input }: Call<{ id: string }>): Promise<SavedPlan> {
  return toSavedPlan(await requireOwned(ctx, plans, input.id, 'Plan'));
}

/** The drafts made from it stay: they are posts of their own by then. */
export async function deletePlan({ ctx, input }: Call<{ id: string }>): Promise<{ deleted: boolean }> {
  const rows = await ctx.deps.db
    .delete(plans)
    .where(and(eq(plans.id, input.id), eq(plans.accountId, ctx.caller.accountId)))
    .returning({ id: plans.id });
  if (rows.length === 0) throw ownedNotFound('Plan');
  return { deleted: true };
}

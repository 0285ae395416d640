import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../context.ts';
import { modelUsage } from '../../db/schema/index.ts';
import { QuotaExceeded } from '../../domain/errors.ts';

/** Monthly model-backed operations per plan; `free` is configurable (FREE_PLAN_MODEL_QUOTA). */
export function monthlyQuota(ctx: Ctx): number {
  switch (ctx.caller.plan) {
    case 'free':
      return ctx.deps.config.FREE_PLAN_MODEL_QUOTA;
    case 'pro':
      return 10_000;
    default:
      return 100_000;
  }
}

/** Calendar month in UTC, e.g. `2026-11`. */
export const monthOf = (epochMs: number) => new Date(epochMs).toISOString().slice(0, 7);

/**
 * Counts one model-backed operation against the account's monthly quota, or throws 402.
 * One statement: the upsert only increments while under the limit, so concurrent requests
 * in several processes can never overshoot it. Call it only when the model will really run
 * (a cache hit is free), and `refundModelOperation` if the model then fails.
 */
export async function consumeModelOperation(ctx: Ctx): Promise<void> {
  const limit = monthlyQuota(ctx);
  const month = monthOf(ctx.deps.clock.now());
  if (limit <= 0) throw new QuotaExceeded(limit);
  const rows = await ctx.deps.db
    .insert(modelUsage)
    .values({ accountId: ctx.caller.accountId, month, count: 1 })
    .onConflictDoUpdate({
      target: [modelUsage.accountId, modelUsage.month],
      set: { count: sql`${modelUsage.count} + 1` },
      setWhere: sql`${modelUsage.count} < ${limit}`,
    })
    .returning({ count: modelUsage.count });
  if (rows.length === 0) throw new QuotaExceeded(limit);
}

export async function refundModelOperation(ctx: Ctx): Promise<void> {
  const month = monthOf(ctx.deps.clock.now());
  await ctx.deps.db
    .update(modelUsage)
    .set({ count: sql`greatest(${modelUsage.count} - 1, 0)` })
    .where(and(eq(modelUsage.accountId, ctx.caller.accountId), eq(modelUsage.month, month)));
}

export async function modelOperationsUsed(ctx: Ctx): Promise<number> {
  const [row] = await ctx.deps.db
    .select({ count: modelUsage.count })
    .from(modelUsage)
    .where(
      and(
        eq(modelUsage.accountId, ctx.caller.accountId),
        eq(modelUsage.month, monthOf(ctx.deps.clock.now())),
      ),
    );
  return row?.count ?? 0;
}

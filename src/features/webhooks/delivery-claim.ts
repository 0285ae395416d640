import { and, asc, eq, inArray, isNotNull, lt, lte, min, or } from 'drizzle-orm';
import type { AppDeps } from '../../context.ts';
import { webhookDeliveries } from '../../db/schema/index.ts';
import { claimBatch } from '../../jobs/claim-batch.ts';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** A claim lasts the longest an attempt can take plus slack; after that a dead sender's claim lapses. */
const leaseMs = (deps: AppDeps) => 3 * deps.config.WEBHOOK_TIMEOUT_MS + 30_000;

/**
 * Claims up to `limit` due deliveries: `pending` or `failed` ones whose attempt is due, and
 * `sending` ones whose lease lapsed (their sender died mid-attempt). SKIP LOCKED lets any
 * number of workers claim side by side without taking the same row twice.
 */
export function claimDueDeliveries(deps: AppDeps, limit: number): Promise<DeliveryRow[]> {
  const now = deps.clock.now();
  return claimBatch(deps.db, {
    table: webhookDeliveries,
    where: or(
      and(
        inArray(webhookDeliveries.status, ['pending', 'failed']),
        lte(webhookDeliveries.nextAttemptAt, now),
      ),
      and(eq(webhookDeliveries.status, 'sending'), lt(webhookDeliveries.leaseUntil, now)),
    ),
    orderBy: asc(webhookDeliveries.nextAttemptAt),
    limit,
    set: { status: 'sending', leaseUntil: now + leaseMs(deps), updatedAt: now },
  });
}

/** The earliest moment a delivery becomes due (or a lapsed claim becomes claimable again). */
export async function nextDeliveryDueAt(deps: AppDeps): Promise<number | null> {
  const [[queued], [leased]] = await Promise.all([
    deps.db
      .select({ at: min(webhookDeliveries.nextAttemptAt) })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.status, ['pending', 'failed'])),
    deps.db
      .select({ at: min(webhookDeliveries.leaseUntil) })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.status, 'sending'), isNotNull(webhookDeliveries.leaseUntil))),
  ]);
  const times = [queued?.at, leased?.at].filter((t): t is number => t !== null && t !== undefined);
  return times.length ? Math.min(...times) : null;
}

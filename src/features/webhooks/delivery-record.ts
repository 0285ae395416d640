import { and, eq, inArray } from 'drizzle-orm';
import type { AppDeps } from '../../context.ts';
import { webhookDeliveries, webhooks } from '../../db/schema/index.ts';
import { nextDelayMs, WEBHOOK_RETRY } from '../../jobs/schedules.ts';
import type { createAttemptWriter } from './attempt-writer.ts';
import type { DeliveryRow } from './delivery-claim.ts';
import type { AttemptOutcome } from './delivery-send.ts';

export type AttemptWriter = ReturnType<typeof createAttemptWriter>;

const DISABLED_410 = 'Not sent: the endpoint was disabled after its receiver answered 410 Gone.';

/** Writes one attempt's result, only if this process still holds the claim. */
export async function recordAttempt(
  deps: AppDeps,
  writer: AttemptWriter,
  row: DeliveryRow,
  outcome: AttemptOutcome,
) {
  const now = deps.clock.now();
  const attempts = row.attempts + 1;
  const delivered = outcome.error === null;
  const gone = outcome.statusCode === 410;
  const delay =
    delivered || gone ? null : nextDelayMs(WEBHOOK_RETRY, attempts, deps.config.WEBHOOK_BACKOFF_SCALE);
  const status = delivered ? 'delivered' : delay === null ? 'dead' : 'failed';
  // Lateness: sent now, due at nextAttemptAt (a lapsed claim's retry is late by its lease).
  deps.metrics.webhookAttempt(status, row.nextAttemptAt === null ? null : now - row.nextAttemptAt);
  await writer.record({
    id: row.id,
    leaseUntil: row.leaseUntil!,
    status,
    attempts,
    lastStatusCode: outcome.statusCode,
    lastError: gone ? 'Receiver answered 410 Gone; the endpoint is now disabled.' : outcome.error,
    nextAttemptAt: delay === null ? null : now + delay,
    at: now,
  });
  if (gone) await disableEndpoint(deps, row.webhookId, now);
}

/** 410 Gone: the receiver asks us to stop. The endpoint is disabled and its queue given up. */
async function disableEndpoint(deps: AppDeps, webhookId: string, now: number) {
  await deps.db.transaction(async (tx) => {
    await tx
      .update(webhooks)
      .set({ status: 'disabled', updatedAt: now })
      .where(and(eq(webhooks.id, webhookId), eq(webhooks.status, 'active')));
    await tx
      .update(webhookDeliveries)
      .set({ status: 'dead', nextAttemptAt: null, lastError: DISABLED_410, updatedAt: now })
      .where(
        and(
          eq(webhookDeliveries.webhookId, webhookId),
          inArray(webhookDeliveries.status, ['pending', 'failed']),
        ),
      );
  });
}

/** A queued delivery whose endpoint or event is gone, or was disabled meanwhile, is given up, not sent. */
export async function giveUp(deps: AppDeps, row: DeliveryRow, reason: 'missing' | 'disabled') {
  const now = deps.clock.now();
  const lastError =
    reason === 'missing' ? 'Not sent: the endpoint or its event no longer exists.' : DISABLED_410;
  await deps.db
    .update(webhookDeliveries)
    .set({ status: 'dead', nextAttemptAt: null, leaseUntil: null, lastError, updatedAt: now })
    .where(and(eq(webhookDeliveries.id, row.id), eq(webhookDeliveries.leaseUntil, row.leaseUntil!)));
}

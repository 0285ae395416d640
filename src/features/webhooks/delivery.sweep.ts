import { inArray } from 'drizzle-orm';
import type { AppDeps } from '../../context.ts';
import { events, webhooks } from '../../db/schema/index.ts';
import { forEachBounded } from '../../jobs/pool.ts';
import type { Sweep } from '../../jobs/runner.ts';
import { vaultAad } from '../../vault/aad.ts';
import { SweepName } from '../../wake/sweep-names.ts';
import { createAttemptWriter } from './attempt-writer.ts';
import { claimDueDeliveries, type DeliveryRow, nextDeliveryDueAt } from './delivery-claim.ts';
import { type AttemptWriter, giveUp, recordAttempt } from './delivery-record.ts';
import { sendAttempt } from './delivery-send.ts';
import { deliveryHeaders } from './signing.ts';

/** Deliveries claimed per run; a full batch makes the runner go again at once. */
export const DELIVERY_BATCH = 100;
/** Sends in flight at once within a run. */
const SEND_CONCURRENCY = 32;

interface Target {
  url: string;
  status: string;
  secretSealed: string;
}

type EventRow = typeof events.$inferSelect;

/** Signs and sends one claimed delivery, then records the attempt. */
async function deliverOne(
  deps: AppDeps,
  writer: AttemptWriter,
  row: DeliveryRow,
  target: Target | undefined,
  event: EventRow | undefined,
) {
  if (!target || !event) return giveUp(deps, row, 'missing');
  if (target.status !== 'active') return giveUp(deps, row, 'disabled');
  let secret: string;
  try {
    if (!deps.vault) throw new Error('no vault');
    secret = deps.vault.open(target.secretSealed, vaultAad.webhookSecret(row.webhookId));
  } catch {
    // An operator problem (vault key removed or rotated without KIT_VAULT_OLD_KEYS): never send unsigned.
    return recordAttempt(deps, writer, row, {
      statusCode: null,
      error: 'Not sent: the signing secret could not be opened (check KIT_VAULT_KEY / KIT_VAULT_OLD_KEYS).',
    });
  }
  const body = JSON.stringify({
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    data: event.payload,
  });
  const headers = deliveryHeaders({
    secret,
    eventType: event.type,
    deliveryId: row.id,
    nowMs: deps.clock.now(),
    rawBody: body,
  });
  const outcome = await sendAttempt(deps, target.url, headers, body);
  await recordAttempt(deps, writer, row, outcome);
}

/** Claims and sends one batch of due deliveries; returns how many were handled. */
export async function deliverDue(deps: AppDeps, limit = DELIVERY_BATCH): Promise<number> {
  const claimed = await claimDueDeliveries(deps, limit);
  if (claimed.length === 0) return 0;
  const webhookIds = [...new Set(claimed.map((d) => d.webhookId))];
  const eventIds = [...new Set(claimed.map((d) => d.eventId))];
  const [targets, eventRows] = await Promise.all([
    deps.db
      .select({
        id: webhooks.id,
        url: webhooks.url,
        status: webhooks.status,
        secretSealed: webhooks.secretSealed,
      })
      .from(webhooks)
      .where(inArray(webhooks.id, webhookIds)),
    deps.db.select().from(events).where(inArray(events.id, eventIds)),
  ]);
  const targetById = new Map(targets.map((t) => [t.id, t]));
  const eventById = new Map(eventRows.map((e) => [e.id, e]));
  const writer = createAttemptWriter(deps);
  // Claimed rows are all sent, even on shutdown: the claim is ours until recorded.
  await forEachBounded(claimed, SEND_CONCURRENCY, (row) =>
    deliverOne(deps, writer, row, targetById.get(row.webhookId), eventById.get(row.eventId)).catch((err) =>
      // The claim lapses and another run retries; nothing is lost.
      deps.log.error({ err, deliveryId: row.id }, 'could not record a webhook attempt'),
    ),
  );
  return claimed.length;
}

/**
 * The delivery sweep. Recording an event wakes it once the transaction commits
 * (events.service.ts): in this process through the wake hub, and on PostgreSQL in the others
 * through the wake relay (wake-relay.ts), so a first attempt goes out at once wherever the event
 * was written. Retries and lapsed claims are found through `nextDueAt`, so between wakes the
 * sweep sleeps until something is due.
 */
export const webhookDeliverySweep: Sweep = {
  name: SweepName.webhooks,
  batchSize: DELIVERY_BATCH,
  run: (deps) => deliverDue(deps),
  // First attempts and retries alike (`pending` or `failed` rows), and claims about to lapse.
  nextDueAt: (deps) => nextDeliveryDueAt(deps),
  // An event recorded by another process reaches this one as a wake; while such wakes cannot
  // arrive (embedded database, or LISTEN down), its deliveries are found by looking this often.
  pollMs: (deps) => Math.min(deps.config.WEBHOOK_POLL_MS, deps.config.SWEEP_INTERVAL_MS),
};

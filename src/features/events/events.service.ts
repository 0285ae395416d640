import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { events, webhookDeliveries, webhooks } from '../../db/schema/index.ts';
import type { WebhookEvent } from '../../domain/enums.ts';
import { SweepName } from '../../jobs/sweep-names.ts';
import { wakeAfterCommit } from '../../jobs/wake-on-commit.ts';
import { newId } from '../../lib/ids.ts';

export interface RecordedEvent {
  id: string;
  type: WebhookEvent;
  createdAt: number;
  deliveries: number;
}

/**
 * Records an event in the caller's transaction (the outbox pattern) and fans it out to one
 * pending delivery per active endpoint subscribed to it. Because it shares the transaction
 * that changed the state, a committed change always has its event and a rolled-back change
 * never does; the delivery sweep sends them, surviving process deaths. Its first attempts
 * do not wait for the sweep's poll: the sweep is woken once the transaction commits.
 *
 * Body sent to receivers (DECISIONS.md): `{id, type, createdAt, data}`.
 */
export async function recordEvent(
  tx: DbOrTx,
  input: { accountId: string; type: WebhookEvent; data: Record<string, unknown>; now: number },
): Promise<RecordedEvent> {
  const id = newId('event');
  await tx.insert(events).values({
    id,
    accountId: input.accountId,
    type: input.type,
    payload: input.data,
    createdAt: input.now,
  });
  const endpoints = await tx
    .select({ id: webhooks.id, events: webhooks.events })
    .from(webhooks)
    .where(and(eq(webhooks.accountId, input.accountId), eq(webhooks.status, 'active')));
  const subscribed = endpoints.filter((e) => e.events.includes(input.type));
  if (subscribed.length > 0) {
    await tx.insert(webhookDeliveries).values(
      subscribed.map((endpoint) => ({
        id: newId('delivery'),
        webhookId: endpoint.id,
        accountId: input.accountId,
        eventId: id,
        event: input.type,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: input.now,
        createdAt: input.now,
        updatedAt: input.now,
      })),
    );
    wakeAfterCommit(tx, SweepName.webhooks);
  }
  return { id, type: input.type, createdAt: input.now, deliveries: subscribed.length };
}

import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { inTexts, rowsOf } from '../../db/json-rows.ts';
import { events, webhookDeliveries, webhooks } from '../../db/schema/index.ts';
import type { WebhookEvent } from '../../domain/enums.ts';
import { newId } from '../../lib/ids.ts';
import { SweepName } from '../../wake/sweep-names.ts';
import { wakeAfterCommit } from '../../wake/wake-on-commit.ts';

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
export async function recordEvent(tx: DbOrTx, input: EventInput): Promise<RecordedEvent> {
  const [recorded] = await recordEvents(tx, [input]);
  return recorded!;
}

export interface EventInput {
  accountId: string;
  type: WebhookEvent;
  data: Record<string, unknown>;
  now: number;
}

/**
 * `recordEvent` for several events at once (a batch of publish outcomes): one statement that
 * inserts the events and reads the endpoints of every account involved, one insert of the
 * deliveries (when any endpoint subscribes).
 */
export async function recordEvents(tx: DbOrTx, inputs: EventInput[]): Promise<RecordedEvent[]> {
  if (inputs.length === 0) return [];
  const rows = inputs.map((input) => ({
    id: newId('event'),
    accountId: input.accountId,
    type: input.type,
    payload: input.data,
    createdAt: input.now,
  }));
  // One parameter for the whole batch: the same prepared statement whatever its size. The
  // insert rides in the endpoints' read as a data-modifying WITH (PostgreSQL runs it exactly
  // once, referenced or not): one statement and one round trip for both, which a burst of
  // publish outcomes makes once per group.
  const inserted = tx.$with('inserted_events').as(tx.insert(events).select(rowsOf(events, rows)));
  const accountIds = [...new Set(inputs.map((input) => input.accountId))];
  const endpoints = await tx
    .with(inserted)
    .select({ id: webhooks.id, accountId: webhooks.accountId, events: webhooks.events })
    .from(webhooks)
    .where(and(inTexts(webhooks.accountId, accountIds), eq(webhooks.status, 'active')));
  const deliveries = rows.flatMap((event) =>
    endpoints
      .filter((e) => e.accountId === event.accountId && e.events.includes(event.type))
      .map((endpoint) => ({
        id: newId('delivery'),
        webhookId: endpoint.id,
        accountId: event.accountId,
        eventId: event.id,
        event: event.type,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: event.createdAt,
        createdAt: event.createdAt,
        updatedAt: event.createdAt,
      })),
  );
  if (deliveries.length > 0) {
    await tx.insert(webhookDeliveries).values(deliveries);
    wakeAfterCommit(tx, SweepName.webhooks);
  }
  return rows.map((event) => ({
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    deliveries: deliveries.filter((d) => d.eventId === event.id).length,
  }));
}

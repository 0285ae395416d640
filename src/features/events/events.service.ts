import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { inTextsOf, rowsFrom, rowsOfText } from '../../db/json-rows.ts';
import { reusableStatement } from '../../db/reusable-statement.ts';
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

/**
 * Inserts the events and reads the active endpoints of their accounts, in one statement built
 * once (reusable-statement.ts): a burst of publish outcomes runs it once per group. One
 * parameter holds all the events, so it is the same prepared statement whatever their number.
 * The insert rides in the read as a data-modifying WITH, which PostgreSQL runs exactly once,
 * referenced or not: one round trip for both.
 */
const insertEventsReadEndpoints = reusableStatement<
  { events: string; accountIds: string },
  { id: string; accountId: string; events: string[] }[]
>('postkit_insert_events', (tx) => {
  const inserted = tx
    .$with('inserted_events')
    .as(tx.insert(events).select(rowsFrom(events, sql.placeholder('events'))));
  return tx
    .with(inserted)
    .select({ id: webhooks.id, accountId: webhooks.accountId, events: webhooks.events })
    .from(webhooks)
    .where(and(inTextsOf(webhooks.accountId, sql.placeholder('accountIds')), eq(webhooks.status, 'active')));
});

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
  const accountIds = [...new Set(inputs.map((input) => input.accountId))];
  const endpoints = await insertEventsReadEndpoints(tx, {
    events: rowsOfText(events, rows),
    accountIds: JSON.stringify(accountIds),
  });
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

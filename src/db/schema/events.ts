import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { accounts, ms } from './accounts.ts';

/** The outbox: every event is written in the transaction that changed the state. */
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [index('events_account_idx').on(t.accountId, t.createdAt)],
);

export const webhooks = pgTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    /** active | disabled */
    status: text('status').notNull(),
    /** Signing secret, sealed by the vault (or by the service key when no vault key is set). */
    secretSealed: text('secret_sealed').notNull(),
    createdAt: ms('created_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [index('webhooks_account_idx').on(t.accountId, t.createdAt)],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    eventId: text('event_id').notNull(),
    event: text('event').notNull(),
    /** pending | sending | delivered | failed | dead */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    nextAttemptAt: ms('next_attempt_at'),
    /** A claimed delivery whose lease lapsed (process died) is claimable again. */
    leaseUntil: ms('lease_until'),
    createdAt: ms('created_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt),
  ],
);

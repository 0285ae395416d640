import { bigserial, index, pgTable, text } from 'drizzle-orm/pg-core';
import { accounts, ms } from './accounts.ts';

/**
 * What members did in a workspace (src/features/audit): written in the transaction of the
 * action itself, so the trail holds an event exactly when the change committed. `memberId` is
 * not a foreign key: a removed member's events keep their id.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The member who acted; null when nobody did (a worker, or a connect no member started). */
    memberId: text('member_id'),
    action: text('action').notNull(),
    /** The id of what the action was done to (a key, member, post, channel, webhook, account). */
    target: text('target').notNull(),
    createdAt: ms('created_at').notNull(),
    /** Insertion order: events of one millisecond (a rotation's revoke and create) list in the order written. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
  },
  (t) => [index('audit_events_account_idx').on(t.accountId, t.createdAt, t.seq)],
);

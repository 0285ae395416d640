import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts, members, ms } from './accounts.ts';

/**
 * A member signed in to the console with email and password (src/features/sessions): the
 * browser holds the secret in an httpOnly cookie; only its SHA-256 digest is stored. Removing the
 * member deletes its sessions, and every request reads this table, so they stop at once in
 * every process.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: ms('created_at').notNull(),
    expiresAt: ms('expires_at').notNull(),
  },
  (t) => [uniqueIndex('sessions_token_uq').on(t.tokenHash), index('sessions_member_idx').on(t.memberId)],
);

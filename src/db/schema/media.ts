import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { accounts, ms } from './accounts.ts';
import { brands } from './memory.ts';

export const media = pgTable(
  'media',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    brandId: text('brand_id').references(() => brands.id, { onDelete: 'set null' }),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    filename: text('filename'),
    sha256: text('sha256').notNull(),
    /** Where the bytes live (file path or object key); never returned. */
    storageKey: text('storage_key').notNull(),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [index('media_account_idx').on(t.accountId, t.createdAt)],
);

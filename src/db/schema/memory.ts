import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { accounts, ms } from './accounts.ts';

export const brands = pgTable(
  'brands',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    audience: text('audience'),
    themes: jsonb('themes').$type<string[]>().notNull().default([]),
    linkPolicy: text('link_policy'),
    createdAt: ms('created_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [index('brands_account_idx').on(t.accountId, t.createdAt)],
);

export const voices = pgTable(
  'voices',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Deleting a brand keeps its voices: the reference becomes null. */
    brandId: text('brand_id').references(() => brands.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    traits: jsonb('traits').$type<string[]>().notNull().default([]),
    doNot: jsonb('do_not').$type<string[]>().notNull().default([]),
    exemplars: jsonb('exemplars').$type<string[]>().notNull().default([]),
    createdAt: ms('created_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [index('voices_account_idx').on(t.accountId, t.createdAt)],
);

import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { accounts, ms } from './accounts.ts';
import { channels } from './channels.ts';

/** One item of a saved plan as stored: the plan item's fields and the draft made from it. */
export interface StoredPlanItem {
  slot: number;
  pillar: string;
  hook: string;
  angle: string;
  format: string;
  archetype: string;
  evidence: string | null;
  when: number | null;
  /** The post "turn into drafts" made from the item; null until then. */
  postId: string | null;
}

/** Saved plans (issue 34): a plan result kept with the brief it was made from. */
export const plans = pgTable(
  'plans',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    brief: text('brief').notNull(),
    platform: text('platform').notNull(),
    /** The channel the plan was made for; a disconnected channel leaves the plan (set null). */
    channelId: text('channel_id').references(() => channels.id, { onDelete: 'set null' }),
    items: jsonb('items').$type<StoredPlanItem[]>().notNull(),
    createdAt: ms('created_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [index('plans_account_idx').on(t.accountId, t.createdAt)],
);

import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { accounts, ms } from './accounts.ts';

/**
 * One personal scoring model per account (src/scoring/personal/), refitted in the background.
 * `staleSince` set = the inputs (history, metrics, the global model) changed and a refit is
 * due; the sweep claims a row by setting `claimedAt` (a lease: a process that dies mid-fit
 * leaves it to lapse, and another process refits).
 */
export const personalModels = pgTable(
  'personal_models',
  {
    accountId: text('account_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Bumped whenever the fitted model changes; part of the score cache key. */
    version: integer('version').notNull().default(0),
    /** null: not enough history (fewer than 10 posts with engagement). */
    model: jsonb('model').$type<Record<string, unknown>>(),
    basedOn: integer('based_on').notNull().default(0),
    globalVersion: text('global_version'),
    /** Hash of the fit's inputs: an unchanged history refits to the same model, so it is skipped. */
    fingerprint: text('fingerprint'),
    staleSince: ms('stale_since'),
    claimedAt: ms('claimed_at'),
    /** When the inputs were last read for a fit; newer metric polls make the row stale. */
    checkedAt: ms('checked_at'),
    fittedAt: ms('fitted_at'),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [index('personal_models_stale_idx').on(t.staleSince)],
);

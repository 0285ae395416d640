import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { channels } from '../../db/schema/index.ts';
import { requireOwned } from '../tenancy.ts';
import type { Channel } from './channels.schemas.ts';

/** A stored channel, sealed columns included: never leaves the service. */
export type ChannelRow = typeof channels.$inferSelect;

/** The public shape (CONTRACT.md): no token material, sealed or not. */
export const toChannel = (row: ChannelRow): Channel => ({
  id: row.id,
  accountId: row.accountId,
  brandId: row.brandId,
  platform: row.platform,
  platformUserId: row.platformUserId,
  handle: row.handle,
  status: row.status as Channel['status'],
  scopes: row.scopes,
  expiresAt: row.expiresAt,
  lastRefreshAt: row.lastRefreshAt,
  renews: row.refreshTokenSealed !== null,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** The caller's channel, or 404 (another account's id is indistinguishable from no id). */
export async function loadChannelRow(db: DbOrTx, accountId: string, channelId: string): Promise<ChannelRow> {
  return requireOwned({ accountId, db }, channels, channelId, 'Channel');
}

export async function readChannelRow(db: DbOrTx, channelId: string): Promise<ChannelRow | null> {
  const [row] = await db.select().from(channels).where(eq(channels.id, channelId));
  return row ?? null;
}

import { and, eq, ne } from 'drizzle-orm';
import type { AppDeps } from '../../context.ts';
import { channels } from '../../db/schema/index.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { recordEvent } from '../events/events.service.ts';
import { type ChannelRow, readChannelRow, toChannel } from './channel-row.ts';

/** The status changes a channel goes through outside a connect; each one is a guarded UPDATE. */

/** connected -> `status`, guarded so a concurrent revoke or reconnect is never overwritten. */
async function leaveConnected(
  deps: AppDeps,
  channelId: string,
  status: 'expired' | 'error',
  reason: string,
): Promise<ChannelRow | null> {
  const [row] = await deps.db
    .update(channels)
    .set({ status, lastError: reason, updatedAt: deps.clock.now() })
    .where(and(eq(channels.id, channelId), eq(channels.status, 'connected')))
    .returning();
  return row ?? readChannelRow(deps.db, channelId);
}

/** connected -> expired (the access token lapsed and cannot be renewed). */
export const markExpired = (deps: AppDeps, channelId: string, reason: string) =>
  leaveConnected(deps, channelId, 'expired', reason);

/** connected -> error (e.g. a missing scope: the member must reconnect). */
export const markError = (deps: AppDeps, channelId: string, reason: string) =>
  leaveConnected(deps, channelId, 'error', reason);

export type RevokeReason = 'disconnected' | 'revoked_at_platform';

/**
 * Any status -> revoked: wipes the sealed tokens irreversibly (nulls, row kept) and records
 * `channel.disconnected` in the same transaction, once. With `lease`, only the lease holder
 * may do it (a refresh that learnt of the revocation); `accountId` scopes it to a caller.
 * Returns the row (already revoked ones unchanged), or null when no such channel. A member's
 * disconnect (`memberId`) goes into the audit trail in that transaction too.
 */
export async function revokeChannel(
  deps: AppDeps,
  input: { channelId: string; reason: RevokeReason; accountId?: string; lease?: number; memberId?: string },
): Promise<ChannelRow | null> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const conditions = [eq(channels.id, input.channelId), ne(channels.status, 'revoked')];
    if (input.accountId) conditions.push(eq(channels.accountId, input.accountId));
    if (input.lease !== undefined) conditions.push(eq(channels.refreshLeaseUntil, input.lease));
    const [row] = await tx
      .update(channels)
      .set({
        status: 'revoked',
        accessTokenSealed: null,
        refreshTokenSealed: null,
        expiresAt: null,
        refreshExpiresAt: null,
        refreshLeaseUntil: null,
        lastError: input.reason === 'disconnected' ? null : 'access revoked at the platform',
        updatedAt: now,
      })
      .where(and(...conditions))
      .returning();
    if (row) {
      await recordEvent(tx, {
        accountId: row.accountId,
        type: 'channel.disconnected',
        data: { channel: toChannel(row), reason: input.reason },
        now,
      });
      if (input.memberId !== undefined)
        await recordAudit(
          tx,
          { accountId: row.accountId, memberId: input.memberId },
          { action: 'channel.disconnected', target: row.id, at: now },
        );
      return row;
    }
    const conditionsRead = [eq(channels.id, input.channelId)];
    if (input.accountId) conditionsRead.push(eq(channels.accountId, input.accountId));
    const [current] = await tx
      .select()
      .from(channels)
      .where(and(...conditionsRead));
    return current ?? null;
  });
}

import { desc, eq } from 'drizzle-orm';
import type { Call } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { auditEvents } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { type PageInfo, type PageRequest, paginate } from '../pagination.ts';
import type { AuditAction, AuditEvent } from './audit.schemas.ts';

/** Who acted where: a caller's account and member, or (a worker, a public callback) no member. */
export interface AuditActor {
  accountId: string;
  memberId: string | null;
}

/**
 * Writes one event of the trail. Called with the transaction of the action itself, so an event
 * exists exactly when the action committed: a refused or rolled-back action leaves none.
 */
export async function recordAudit(
  tx: DbOrTx,
  actor: AuditActor,
  event: { action: AuditAction; target: string; at: number },
): Promise<void> {
  await tx.insert(auditEvents).values({
    id: newId('audit'),
    accountId: actor.accountId,
    memberId: actor.memberId,
    action: event.action,
    target: event.target,
    createdAt: event.at,
  });
}

const toAuditEvent = (row: typeof auditEvents.$inferSelect): AuditEvent => ({
  id: row.id,
  memberId: row.memberId,
  action: row.action as AuditAction,
  target: row.target,
  at: row.createdAt,
});

/** GET /v1/audit (owner or admin, the route's role): the workspace's events, newest first. */
export async function listAudit({
  ctx,
  input,
}: Call<PageRequest>): Promise<{ events: AuditEvent[]; pagination: PageInfo }> {
  const { items, pagination } = await paginate(input, (limit, offset) =>
    ctx.deps.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.accountId, ctx.caller.accountId))
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.seq))
      .limit(limit)
      .offset(offset),
  );
  return { events: items.map(toAuditEvent), pagination };
}

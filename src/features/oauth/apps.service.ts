import { and, desc, eq, isNull } from 'drizzle-orm';
import { requireRole } from '../../caller.ts';
import type { Call, Ctx } from '../../context.ts';
import { members, oauthClients, oauthGrants } from '../../db/schema/index.ts';
import { NotFound } from '../../domain/errors.ts';
import { roleReaches } from '../../domain/roles.ts';
import { normalizeScopes, type Scope } from '../../domain/scopes.ts';
import { revokeGrant } from './token.service.ts';

/** An app (OAuth client) members of the workspace approved and did not revoke. */
export interface ConnectedApp {
  clientId: string;
  name: string;
  clientUri: string | null;
  redirectHosts: string[];
  scopes: Scope[];
  connectedAt: number;
  lastUsedAt: number | null;
  /** The members whose approvals this entry covers (only the caller, for a non-admin). */
  connectedBy: { memberId: string; email: string; name: string | null }[];
}

/**
 * Whose grants a caller sees and ends: an owner or admin the whole workspace's (they manage
 * the members, as they manage keys), everyone else only their own (docs/decisions.md).
 */
const seesAllGrants = (ctx: Ctx) => roleReaches(ctx.caller.role, 'admin');

function liveGrantsOf(ctx: Ctx, clientId?: string) {
  return ctx.deps.db
    .select({
      grant: oauthGrants,
      client: oauthClients,
      member: { id: members.id, email: members.email, name: members.name, role: members.role },
    })
    .from(oauthGrants)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .innerJoin(members, eq(members.id, oauthGrants.memberId))
    .where(
      and(
        eq(oauthGrants.accountId, ctx.caller.accountId),
        isNull(oauthGrants.revokedAt),
        seesAllGrants(ctx) ? undefined : eq(oauthGrants.memberId, ctx.caller.memberId),
        clientId === undefined ? undefined : eq(oauthGrants.clientId, clientId),
      ),
    )
    .orderBy(desc(oauthGrants.createdAt));
}

/**
 * The connected apps the caller may see: one entry per client with at least one live grant,
 * its scopes the union of those grants'. Registrations themselves are anonymous (RFC 7591); an
 * app becomes the workspace's when a member approves it.
 */
export async function listConnectedApps({ ctx }: Call<void>): Promise<ConnectedApp[]> {
  const apps = new Map<string, ConnectedApp>();
  for (const { grant, client, member } of await liveGrantsOf(ctx)) {
    const by = { memberId: member.id, email: member.email, name: member.name };
    const app = apps.get(client.id);
    if (!app) {
      apps.set(client.id, {
        clientId: client.id,
        name: client.name,
        clientUri: client.clientUri,
        redirectHosts: [...new Set(client.redirectUris.map((uri) => new URL(uri).host))],
        scopes: grant.scopes,
        connectedAt: grant.createdAt,
        lastUsedAt: grant.lastUsedAt,
        connectedBy: [by],
      });
      continue;
    }
    app.scopes = normalizeScopes([...app.scopes, ...grant.scopes]);
    app.connectedAt = Math.min(app.connectedAt, grant.createdAt);
    if (grant.lastUsedAt !== null) app.lastUsedAt = Math.max(app.lastUsedAt ?? 0, grant.lastUsedAt);
    if (!app.connectedBy.some((m) => m.memberId === member.id)) app.connectedBy.push(by);
  }
  return [...apps.values()];
}

/**
 * Revokes the live grants of this client the caller may end: their tokens stop working at once.
 * A member ends its own; an admin also every member's below owner, and an owner everyone's (as
 * with keys). An app only others connected is 404 to a non-admin, as it is invisible to them.
 */
export async function revokeConnectedApp({
  ctx,
  input,
}: Call<{ id: string }>): Promise<{ revoked: boolean }> {
  const visible = await liveGrantsOf(ctx, input.id);
  if (visible.length === 0) throw new NotFound('Connected app');
  const { memberId, role } = ctx.caller;
  const ending = visible.filter(
    ({ member }) => member.id === memberId || member.role !== 'owner' || role === 'owner',
  );
  // Only owners' grants are left: an admin cannot end those (403 naming the owner role).
  if (ending.length === 0) requireRole(ctx.caller, 'owner', 'Disconnecting an app an owner connected');
  const now = ctx.deps.clock.now();
  await ctx.deps.db.transaction(async (tx) => {
    for (const { grant } of ending) await revokeGrant(tx, grant.id, now, 'revoked');
  });
  ctx.log.info({ clientId: input.id, grants: ending.length }, 'connected app revoked');
  return { revoked: true };
}

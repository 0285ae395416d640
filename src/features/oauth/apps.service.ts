import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Call } from '../../context.ts';
import { oauthClients, oauthGrants } from '../../db/schema/index.ts';
import { NotFound } from '../../domain/errors.ts';
import { normalizeScopes, type Scope } from '../../domain/scopes.ts';
import { revokeGrant } from './token.service.ts';

/** An app (OAuth client) the account has approved and not revoked. */
export interface ConnectedApp {
  clientId: string;
  name: string;
  clientUri: string | null;
  redirectHosts: string[];
  scopes: Scope[];
  connectedAt: number;
  lastUsedAt: number | null;
}

/**
 * The account's connected apps: one entry per client with at least one live grant, its scopes
 * the union of those grants'. Registrations themselves are anonymous (RFC 7591); an app becomes
 * the account's when the account approves it.
 */
export async function listConnectedApps({ ctx }: Call<void>): Promise<ConnectedApp[]> {
  const rows = await ctx.deps.db
    .select({ grant: oauthGrants, client: oauthClients })
    .from(oauthGrants)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .where(and(eq(oauthGrants.accountId, ctx.caller.accountId), isNull(oauthGrants.revokedAt)))
    .orderBy(desc(oauthGrants.createdAt));
  const apps = new Map<string, ConnectedApp>();
  for (const { grant, client } of rows) {
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
      });
      continue;
    }
    app.scopes = normalizeScopes([...app.scopes, ...grant.scopes]);
    app.connectedAt = Math.min(app.connectedAt, grant.createdAt);
    if (grant.lastUsedAt !== null) app.lastUsedAt = Math.max(app.lastUsedAt ?? 0, grant.lastUsedAt);
  }
  return [...apps.values()];
}

/** Revokes every live grant of the account for this client: its tokens stop working at once. */
export async function revokeConnectedApp({
  ctx,
  input,
}: Call<{ id: string }>): Promise<{ revoked: boolean }> {
  const grants = await ctx.deps.db
    .select({ id: oauthGrants.id })
    .from(oauthGrants)
    .where(
      and(
        eq(oauthGrants.accountId, ctx.caller.accountId),
        eq(oauthGrants.clientId, input.id),
        isNull(oauthGrants.revokedAt),
      ),
    );
  if (grants.length === 0) throw new NotFound('Connected app');
  const now = ctx.deps.clock.now();
  await ctx.deps.db.transaction(async (tx) => {
    for (const grant of grants) await revokeGrant(tx, grant.id, now, 'revoked');
  });
  ctx.log.info({ clientId: input.id, grants: grants.length }, 'connected app revoked');
  return { revoked: true };
}

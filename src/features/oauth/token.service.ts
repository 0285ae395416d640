import { and, eq, gt, inArray, isNull, lt, or } from 'drizzle-orm';
import type { AppDeps, Caller, PublicCtx } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { accounts, members, oauthGrants, oauthTokens } from '../../db/schema/index.ts';
import { OAuthRefused } from '../../domain/errors.ts';
import { findClient } from './clients.service.ts';
import { ACCESS_TTL_MS, newSecret, REFRESH_TTL_MS, secretDigest, verifierMatches } from './oauth-secrets.ts';

/*
 * The token endpoint's back half: codes and refresh tokens in, short-lived access tokens and a
 * fresh refresh token out. A refresh token is used once; presenting it a second time means it
 * leaked (or a client raced itself), and the whole grant, every token of the family, is revoked.
 */

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

type Grant = typeof oauthGrants.$inferSelect;

const invalidGrant = (message: string) => new OAuthRefused('invalid_grant', message);
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

async function issuePair(db: DbOrTx, grant: Grant, now: number): Promise<TokenResponse> {
  const access = newSecret('access');
  const refresh = newSecret('refresh');
  await db.insert(oauthTokens).values([
    {
      tokenHash: secretDigest(access),
      grantId: grant.id,
      kind: 'access',
      createdAt: now,
      expiresAt: now + ACCESS_TTL_MS,
    },
    {
      tokenHash: secretDigest(refresh),
      grantId: grant.id,
      kind: 'refresh',
      createdAt: now,
      expiresAt: now + REFRESH_TTL_MS,
    },
  ]);
  // Spent codes and expired tokens of the family are of no further use.
  await db
    .delete(oauthTokens)
    .where(and(eq(oauthTokens.grantId, grant.id), lt(oauthTokens.expiresAt, now - ACCESS_TTL_MS)));
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ACCESS_TTL_MS / 1000,
    refresh_token: refresh,
    scope: grant.scopes.join(' '),
  };
}

/** Ends a grant and, with it, every token it issued (checked at each use). */
export async function revokeGrant(db: DbOrTx, grantId: string, now: number, reason: string) {
  await db
    .update(oauthGrants)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(oauthGrants.id, grantId), isNull(oauthGrants.revokedAt)));
  await db.delete(oauthTokens).where(eq(oauthTokens.grantId, grantId));
}

function checkResource(grant: Grant, resource: unknown) {
  const wanted = str(resource);
  if (wanted !== undefined && wanted.replace(/\/+$/, '') !== grant.resource)
    throw new OAuthRefused('invalid_target', `These tokens are only for ${grant.resource}.`);
}

/** One token row of a kind, locked, with its grant. */
async function lockToken(tx: DbOrTx, secret: string, kind: 'code' | 'refresh') {
  const [row] = await tx
    .select({ token: oauthTokens, grant: oauthGrants })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .where(and(eq(oauthTokens.tokenHash, secretDigest(secret)), eq(oauthTokens.kind, kind)))
    .for('update');
  return row;
}

/**
 * Runs `body` in a transaction; a reuse it detects revokes the grant in a transaction of its
 * own, which must commit even though the request fails.
 */
async function exchange(
  ctx: PublicCtx,
  body: (tx: DbOrTx, now: number) => Promise<TokenResponse | { reused: Grant; what: string }>,
): Promise<TokenResponse> {
  const now = ctx.deps.clock.now();
  const result = await ctx.deps.db.transaction((tx) => body(tx, now));
  if ('access_token' in result) return result;
  await revokeGrant(ctx.deps.db, result.reused.id, now, `${result.what}_reuse`);
  ctx.log.warn(
    { grantId: result.reused.id, clientId: result.reused.clientId },
    `oauth ${result.what} reused; grant revoked`,
  );
  throw invalidGrant(
    `This ${result.what === 'code' ? 'authorization code' : 'refresh token'} was already used, so every token of this authorization has been revoked; sign in again.`,
  );
}

export function exchangeCode(ctx: PublicCtx, form: Record<string, unknown>): Promise<TokenResponse> {
  const code = str(form.code);
  const clientId = str(form.client_id);
  const verifier = str(form.code_verifier);
  if (!code || !clientId || !verifier)
    throw new OAuthRefused('invalid_request', 'Send code, client_id, code_verifier and redirect_uri.');
  return exchange(ctx, async (tx, now) => {
    const row = await lockToken(tx, code, 'code');
    if (!row || row.grant.revokedAt !== null)
      throw invalidGrant('This authorization code is unknown, expired or revoked.');
    const { token, grant } = row;
    if (grant.clientId !== clientId)
      throw invalidGrant('This authorization code was issued to another client.');
    if (token.usedAt !== null) return { reused: grant, what: 'code' };
    if (token.expiresAt <= now) throw invalidGrant('This authorization code has expired; sign in again.');
    if (str(form.redirect_uri) !== token.redirectUri)
      throw invalidGrant('redirect_uri must be the one the authorization request used.');
    if (!verifierMatches(verifier, token.codeChallenge ?? ''))
      throw invalidGrant('code_verifier does not match the code_challenge (PKCE S256).');
    checkResource(grant, form.resource);
    await tx.update(oauthTokens).set({ usedAt: now }).where(eq(oauthTokens.tokenHash, token.tokenHash));
    return issuePair(tx, grant, now);
  });
}

export function refreshTokens(ctx: PublicCtx, form: Record<string, unknown>): Promise<TokenResponse> {
  const refresh = str(form.refresh_token);
  const clientId = str(form.client_id);
  if (!refresh || !clientId) throw new OAuthRefused('invalid_request', 'Send refresh_token and client_id.');
  return exchange(ctx, async (tx, now) => {
    const row = await lockToken(tx, refresh, 'refresh');
    if (!row || row.grant.revokedAt !== null)
      throw invalidGrant('This refresh token is unknown, expired or revoked; sign in again.');
    const { token, grant } = row;
    if (grant.clientId !== clientId) throw invalidGrant('This refresh token was issued to another client.');
    if (token.usedAt !== null) return { reused: grant, what: 'refresh' };
    if (token.expiresAt <= now) throw invalidGrant('This refresh token has expired; sign in again.');
    checkResource(grant, form.resource);
    const scope = str(form.scope);
    if (scope !== undefined && scope.split(/\s+/).sort().join(' ') !== [...grant.scopes].sort().join(' '))
      throw new OAuthRefused(
        'invalid_scope',
        `A refresh keeps the approved scopes (${grant.scopes.join(' ')}); to change them, sign in again.`,
      );
    await tx.update(oauthTokens).set({ usedAt: now }).where(eq(oauthTokens.tokenHash, token.tokenHash));
    return issuePair(tx, grant, now);
  });
}

/**
 * RFC 7009 for public clients: the client names itself (client_id, section 2.1), and a token of
 * its grant, access or refresh, ends the whole grant at once: every token of the family, in
 * every process (tokens are read from the database at each use, never cached). A token that is
 * unknown or already revoked is not an error (section 2.2); a request that cannot be checked is.
 */
export async function revokeToken(ctx: PublicCtx, form: Record<string, unknown>): Promise<void> {
  const token = str(form.token);
  const clientId = str(form.client_id);
  if (!token) throw new OAuthRefused('invalid_request', 'Send the token to revoke (form field token).');
  if (!clientId)
    throw new OAuthRefused(
      'invalid_request',
      'Send client_id with the token: a public client names itself so that only its own tokens are revoked (RFC 7009 section 2.1).',
    );
  if (!(await findClient(ctx, clientId)))
    throw new OAuthRefused('invalid_client', 'This client_id is not registered here.');
  const [row] = await ctx.deps.db
    .select({ grant: oauthGrants })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .where(
      and(eq(oauthTokens.tokenHash, secretDigest(token)), inArray(oauthTokens.kind, ['access', 'refresh'])),
    );
  if (!row) return;
  if (row.grant.clientId !== clientId)
    throw new OAuthRefused(
      'unauthorized_client',
      'This token was issued to another client; it was not revoked.',
    );
  await revokeGrant(ctx.deps.db, row.grant.id, ctx.deps.clock.now(), 'revoked_by_client');
  ctx.log.info({ grantId: row.grant.id, clientId }, 'oauth grant revoked by its client');
}

/** lastUsedAt is written at most this often per grant. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The caller an MCP access token stands for, or null when it is unknown, expired, revoked or
 * bound to another resource. One indexed read per request and no cache, so a revocation ends
 * the token at once in every process.
 */
export async function callerForAccessToken(
  deps: AppDeps,
  token: string,
  resource: string,
): Promise<Caller | null> {
  const now = deps.clock.now();
  const [row] = await deps.db
    .select({
      grant: oauthGrants,
      account: { id: accounts.id, plan: accounts.plan },
      role: members.role,
    })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .innerJoin(accounts, eq(accounts.id, oauthGrants.accountId))
    .innerJoin(members, eq(members.id, oauthGrants.memberId))
    .where(
      and(
        eq(oauthTokens.tokenHash, secretDigest(token)),
        eq(oauthTokens.kind, 'access'),
        gt(oauthTokens.expiresAt, now),
        isNull(oauthGrants.revokedAt),
      ),
    );
  if (!row || row.grant.resource !== resource) return null;
  const { grant } = row;
  if (grant.lastUsedAt === null || grant.lastUsedAt < now - LAST_USED_RESOLUTION_MS) {
    deps.db
      .update(oauthGrants)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(oauthGrants.id, grant.id),
          or(isNull(oauthGrants.lastUsedAt), lt(oauthGrants.lastUsedAt, now - LAST_USED_RESOLUTION_MS)),
        ),
      )
      .catch((err) => deps.log.warn({ err }, 'could not record oauth grant use'));
    // An agent's work is its member's activity, as a key's is (GET /v1/members lastActiveAt).
    deps.db
      .update(members)
      .set({ lastActiveAt: now })
      .where(
        and(
          eq(members.id, grant.memberId),
          or(isNull(members.lastActiveAt), lt(members.lastActiveAt, now - LAST_USED_RESOLUTION_MS)),
        ),
      )
      .catch((err) => deps.log.warn({ err }, 'could not record member activity'));
  }
  return {
    accountId: row.account.id,
    keyId: null,
    plan: row.account.plan,
    memberId: grant.memberId,
    role: row.role,
    scopes: grant.scopes,
    grantId: grant.id,
  };
}

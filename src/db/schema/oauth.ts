import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type { Scope } from '../../domain/scopes.ts';
import { accounts, members, ms } from './accounts.ts';

/*
 * Postkit as an OAuth 2.1 authorization server for its MCP endpoint (src/features/oauth).
 * Every secret (code, access token, refresh token) is stored as its SHA-256 digest only.
 */

/** Clients registered through RFC 7591 dynamic registration: public (no secret), anonymous until approved. */
export const oauthClients = pgTable('oauth_clients', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
  clientUri: text('client_uri'),
  createdAt: ms('created_at').notNull(),
});

/**
 * One approval of a client by an account: the scopes and resource granted. Its tokens form
 * one family; revoking the grant (or reusing a rotated refresh token) ends them all.
 */
export const oauthGrants = pgTable(
  'oauth_grants',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    clientId: text('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    /** The member who approved the client: the grant acts with its role, and ends with it. */
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    scopes: jsonb('scopes').$type<Scope[]>().notNull(),
    /** The RFC 8707 resource the tokens are bound to: `{base}/mcp`. */
    resource: text('resource').notNull(),
    createdAt: ms('created_at').notNull(),
    lastUsedAt: ms('last_used_at'),
    revokedAt: ms('revoked_at'),
    /** Why it ended: `revoked` (by the account), `refresh_reuse`, `code_reuse`. */
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('oauth_grants_account_idx').on(t.accountId, t.clientId)],
);

/** Authorization codes (single use, minutes) and access/refresh tokens of a grant. */
export const oauthTokens = pgTable(
  'oauth_tokens',
  {
    /** SHA-256 hex of the secret. */
    tokenHash: text('token_hash').primaryKey(),
    grantId: text('grant_id')
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'code' | 'access' | 'refresh'>().notNull(),
    /** Codes only: the PKCE S256 challenge and the redirect URI they were issued for. */
    codeChallenge: text('code_challenge'),
    redirectUri: text('redirect_uri'),
    createdAt: ms('created_at').notNull(),
    expiresAt: ms('expires_at').notNull(),
    /** Codes and refresh tokens: when exchanged. A second exchange is reuse. */
    usedAt: ms('used_at'),
  },
  (t) => [index('oauth_tokens_grant_idx').on(t.grantId)],
);

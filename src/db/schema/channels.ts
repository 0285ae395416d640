import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts, ms } from './accounts.ts';
import { brands } from './memory.ts';

export const channels = pgTable(
  'channels',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    brandId: text('brand_id').references(() => brands.id, { onDelete: 'set null' }),
    platform: text('platform').notNull(),
    platformUserId: text('platform_user_id'),
    handle: text('handle'),
    /** connected | expired | revoked | error */
    status: text('status').notNull(),
    scopes: jsonb('scopes').$type<string[]>().notNull().default([]),
    /** Vault-sealed tokens (AES-256-GCM, channel id as AAD); null once wiped. */
    accessTokenSealed: text('access_token_sealed'),
    refreshTokenSealed: text('refresh_token_sealed'),
    expiresAt: ms('expires_at'),
    refreshExpiresAt: ms('refresh_expires_at'),
    lastRefreshAt: ms('last_refresh_at'),
    lastError: text('last_error'),
    /** A process refreshing this channel's tokens holds it until then (multi-process safe claim). */
    refreshLeaseUntil: ms('refresh_lease_until'),
    /** When the health sweep last asked the platform whether the token still works. */
    lastCheckedAt: ms('last_checked_at'),
    createdAt: ms('created_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [
    index('channels_account_idx').on(t.accountId, t.createdAt),
    uniqueIndex('channels_member_uq').on(t.accountId, t.platform, t.platformUserId),
    index('channels_expiry_idx').on(t.status, t.expiresAt),
  ],
);

/** Single-use OAuth state: stored as a digest, bound to the account, expiring after 10 minutes. */
export const oauthStates = pgTable('oauth_states', {
  stateHash: text('state_hash').primaryKey(),
  accountId: text('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  platform: text('platform').notNull(),
  brandId: text('brand_id'),
  /** The member who started the connect: the audit trail names them when it completes. */
  memberId: text('member_id'),
  /** PKCE verifier, sealed by the vault. */
  codeVerifierSealed: text('code_verifier_sealed'),
  expiresAt: ms('expires_at').notNull(),
  usedAt: ms('used_at'),
  createdAt: ms('created_at').notNull(),
});

import { bigint, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { Role } from '../../domain/roles.ts';
import type { Scope } from '../../domain/scopes.ts';

/** Epoch-millisecond timestamps are stored as bigint and read back as JS numbers. */
export const ms = (name: string) => bigint(name, { mode: 'number' });

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    /** Lower-cased email: uniqueness is case-insensitive. */
    emailKey: text('email_key').notNull(),
    plan: text('plan').notNull().default('free'),
    /** The account's IANA time zone (settings): the default of queues, series and insights. */
    timezone: text('timezone').notNull().default('UTC'),
    /** `required`: an editor's post reaches a platform only once an owner or admin approved it. */
    approvals: text('approvals').notNull().default('off'),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [uniqueIndex('accounts_email_key_uq').on(t.emailKey)],
);

/**
 * The people of an account (a workspace): each API key and OAuth grant belongs to one and acts
 * with its role. The account's creator is its first owner; an account keeps at least one owner.
 */
export const members = pgTable(
  'members',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    /** Lower-cased email: one member per address in an account. */
    emailKey: text('email_key').notNull(),
    name: text('name'),
    role: text('role').$type<Role>().notNull(),
    createdAt: ms('created_at').notNull(),
    /** Refreshed with a key's lastUsedAt, at most once a minute. */
    lastActiveAt: ms('last_active_at'),
    /** scrypt of the member's console password (`scrypt$N$r$p$salt$hash`, lib/password.ts); null without one. */
    passwordHash: text('password_hash'),
  },
  (t) => [uniqueIndex('members_account_email_uq').on(t.accountId, t.emailKey)],
);

/**
 * An invitation to join an account with a role: accepted once, within 7 days, with the token
 * whose SHA-256 digest is stored here (the token itself is shown only to the inviter).
 */
export const invitations = pgTable(
  'invitations',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    emailKey: text('email_key').notNull(),
    role: text('role').$type<Role>().notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: text('invited_by').references(() => members.id, { onDelete: 'set null' }),
    createdAt: ms('created_at').notNull(),
    expiresAt: ms('expires_at').notNull(),
    acceptedAt: ms('accepted_at'),
  },
  (t) => [
    uniqueIndex('invitations_token_uq').on(t.tokenHash),
    index('invitations_account_idx').on(t.accountId),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Removing the member deletes its keys: they stop working at once. */
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyPrefix: text('key_prefix').notNull(),
    /** SHA-256 hex of the full secret; the secret itself is never stored. */
    keyHash: text('key_hash').notNull(),
    /** What the key may do (src/domain/scopes.ts); keys made before scopes existed hold all three. */
    scopes: jsonb('scopes').$type<Scope[]>().notNull().default(['read', 'write', 'publish']),
    createdAt: ms('created_at').notNull(),
    lastUsedAt: ms('last_used_at'),
    revokedAt: ms('revoked_at'),
  },
  (t) => [
    uniqueIndex('api_keys_hash_uq').on(t.keyHash),
    index('api_keys_account_idx').on(t.accountId),
    index('api_keys_member_idx').on(t.memberId),
  ],
);

/** Model-backed operations per account per calendar month (UTC), for the 402 quota. */
export const modelUsage = pgTable(
  'model_usage',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.month] })],
);

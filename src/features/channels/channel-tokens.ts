import { setTimeout as delay } from 'node:timers/promises';
import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { AppDeps } from '../../context.ts';
import { channels } from '../../db/schema/index.ts';
import { PlatformError, type PlatformErrorKind, type TokenSet } from '../../platforms/platform.ts';
import { vaultAad } from '../../vault/aad.ts';
import { type Vault, VaultError } from '../../vault/vault.ts';
import type { ChannelTools } from './channel-config.ts';
import { type ChannelRow, readChannelRow } from './channel-row.ts';
import { revokeChannel } from './channel-status.ts';

/**
 * The life of a channel's tokens: sealing, opening, refreshing (one process at a time, via a
 * lease on the row), and the status changes the platform's answers imply. Every write that
 * follows a platform call is guarded by the lease, so a disconnect or reconnect that lands
 * meanwhile is never overwritten by stale tokens.
 */

/** Refresh at most this long before expiry (platformA tokens live 60 days). */
export const REFRESH_AHEAD_MAX_MS = 24 * 3_600_000;
/** How long a refresh claim holds; longer than the adapter's retries of one refresh. */
export const REFRESH_LEASE_MS = 2 * 60_000;
/** How long a caller waits for another process's refresh before re-reading the row. */
const LEASE_WAIT_MS = 15_000;

export const sealAccess = (vault: Vault, channelId: string, token: string) =>
  vault.seal(token, vaultAad.channelToken(channelId, 'access'));
export const sealRefresh = (vault: Vault, channelId: string, token: string) =>
  vault.seal(token, vaultAad.channelToken(channelId, 'refresh'));

/** The columns a fresh token set writes (connect, reconnect, refresh). */
export function tokenColumns(vault: Vault, channelId: string, tokens: TokenSet, now: number) {
  return {
    accessTokenSealed: sealAccess(vault, channelId, tokens.accessToken),
    refreshTokenSealed: tokens.refreshToken ? sealRefresh(vault, channelId, tokens.refreshToken) : null,
    expiresAt: tokens.expiresAt,
    refreshExpiresAt: tokens.refreshToken ? tokens.refreshExpiresAt : null,
    lastRefreshAt: now,
    lastError: null,
    refreshLeaseUntil: null,
  };
}

/**
 * Access tokens opened in the last OPENED_FOR_MS, by sealed value (with its AAD, so by
 * channel): `deps.memory.openedTokens`, for the process's vault. A burst publishes many posts
 * per channel within seconds, and each send opened the same sealed token again (an AES-GCM
 * decipher per post, about 4% of a worker's CPU in bench/publish). Opening is a pure function
 * of the sealed value, its AAD and the vault's keys, so a remembered answer is the answer: a
 * refreshed or reconnected token is a new sealed value and is opened afresh. The plaintext is
 * held no longer than the vault key that opens it is (the whole process), so remembering it for
 * a minute exposes nothing more; entries past their minute are dropped as new ones arrive, and
 * at most OPENED_MAX are kept.
 */
export type OpenedTokens = Map<string, { token: string; until: number }>;
const OPENED_FOR_MS = 60_000;
const OPENED_MAX = 1_000;

declare module '../../context.ts' {
  interface ProcessMemory {
    /** Access tokens the process's vault opened in the last minute (channel-tokens.ts). */
    openedTokens: OpenedTokens;
  }
}

/**
 * Opens the access token, remembered in `opened` (one map per vault: the process's is
 * `deps.memory.openedTokens`); a value that does not open is reported without its content.
 */
export function openAccessToken(opened: OpenedTokens, vault: Vault, row: ChannelRow): string | null {
  if (!row.accessTokenSealed) return null;
  const aad = vaultAad.channelToken(row.id, 'access');
  const key = `${aad}\0${row.accessTokenSealed}`;
  // Monotonic time: how long a plaintext is kept, not a business time.
  const now = performance.now();
  const hit = opened.get(key);
  if (hit && hit.until > now) return hit.token;
  const token = vault.open(row.accessTokenSealed, aad);
  opened.delete(key);
  // Insertion order is expiry order (every entry lives OPENED_FOR_MS from its insertion).
  for (const [k, entry] of opened) {
    if (entry.until > now && opened.size < OPENED_MAX) break;
    opened.delete(k);
  }
  opened.set(key, { token, until: now + OPENED_FOR_MS });
  return token;
}

/**
 * When a refresh becomes due: a fifth of the token's lifetime before expiry, at most
 * REFRESH_AHEAD_MAX_MS (so a 60-day token refreshes a day ahead, a 1-hour token 12 minutes ahead).
 */
export function refreshDueAt(row: Pick<ChannelRow, 'expiresAt' | 'lastRefreshAt'>): number | null {
  if (row.expiresAt === null) return null;
  const lifetime = row.lastRefreshAt === null ? Number.POSITIVE_INFINITY : row.expiresAt - row.lastRefreshAt;
  return row.expiresAt - Math.max(0, Math.min(REFRESH_AHEAD_MAX_MS, Math.floor(lifetime / 5)));
}

export const isLapsed = (row: ChannelRow, now: number) => row.expiresAt !== null && row.expiresAt <= now;

export const canRefresh = (row: ChannelRow, now: number) =>
  row.refreshTokenSealed !== null && (row.refreshExpiresAt === null || row.refreshExpiresAt > now);

export const isRefreshDue = (row: ChannelRow, now: number) => {
  const due = refreshDueAt(row);
  return due !== null && due <= now;
};

/** The short, token-free reason stored in `last_error`. */
const describe = (err: PlatformError | VaultError) =>
  err instanceof VaultError
    ? 'stored token does not open with the vault keys'
    : `${err.kind}: ${err.message}`;

export type RefreshOutcome =
  | { kind: 'refreshed'; row: ChannelRow }
  /** The platform (or the vault) refused; `row` carries the status that implies. */
  | { kind: 'failed'; row: ChannelRow; error: PlatformError | VaultError }
  /** Not refreshed by this call: another process holds the lease, or the channel changed state. */
  | { kind: 'skipped'; row: ChannelRow | null };

/**
 * Refreshes a connected channel's tokens if this process can claim it. The claim names the
 * access token the caller saw (`seen.accessTokenSealed`): once another process has replaced
 * it, there is nothing left to renew, so the same token is never refreshed twice. `wait` makes
 * a caller that finds another process refreshing wait for it (bounded) and return its row.
 */
export async function refreshChannelTokens(
  deps: AppDeps,
  tools: ChannelTools,
  seen: Pick<ChannelRow, 'id' | 'accessTokenSealed'>,
  options: { wait?: boolean } = {},
): Promise<RefreshOutcome> {
  const channelId = seen.id;
  const now = deps.clock.now();
  const lease = now + REFRESH_LEASE_MS;
  const [claimed] = await deps.db
    .update(channels)
    .set({ refreshLeaseUntil: lease })
    .where(
      and(
        eq(channels.id, channelId),
        eq(channels.status, 'connected'),
        seen.accessTokenSealed === null
          ? isNull(channels.accessTokenSealed)
          : eq(channels.accessTokenSealed, seen.accessTokenSealed),
        isNotNull(channels.refreshTokenSealed),
        or(isNull(channels.refreshLeaseUntil), lt(channels.refreshLeaseUntil, now)),
      ),
    )
    .returning();
  if (!claimed) {
    if (options.wait) return { kind: 'skipped', row: await waitForLease(deps, channelId) };
    return { kind: 'skipped', row: await readChannelRow(deps.db, channelId) };
  }

  let tokens: TokenSet;
  try {
    const refreshToken = tools.vault.open(
      claimed.refreshTokenSealed!,
      vaultAad.channelToken(claimed.id, 'refresh'),
    );
    tokens = await tools.platform.refresh({ refreshToken });
  } catch (err) {
    if (!(err instanceof PlatformError) && !(err instanceof VaultError)) {
      await releaseLease(deps, channelId, lease);
      throw err;
    }
    deps.log.warn(
      { channelId, reason: err instanceof VaultError ? 'vault' : err.kind },
      'channel refresh failed',
    );
    const row = await recordRefreshFailure(deps, claimed, lease, err);
    return { kind: 'failed', row: row ?? claimed, error: err };
  }

  const doneAt = deps.clock.now();
  const columns = tokenColumns(tools.vault, claimed.id, tokens, doneAt);
  const values = {
    ...columns,
    // platformA does not rotate refresh tokens: keep the stored one when none came back.
    refreshTokenSealed: columns.refreshTokenSealed ?? claimed.refreshTokenSealed,
    refreshExpiresAt: tokens.refreshToken
      ? (tokens.refreshExpiresAt ?? claimed.refreshExpiresAt)
      : claimed.refreshExpiresAt,
    scopes: tokens.scopes.length > 0 ? tokens.scopes : claimed.scopes,
    status: 'connected' as const,
    updatedAt: doneAt,
  };
  let [updated] = await deps.db
    .update(channels)
    .set(values)
    .where(and(eq(channels.id, channelId), eq(channels.refreshLeaseUntil, lease)))
    .returning();
  if (!updated && tokens.refreshToken) {
    // Rotating refresh tokens (platformB): the one just spent is dead, so the new one must be
    // kept whenever the row still holds the spent one (our lease outlived, not a disconnect or
    // a reconnect, which replace or wipe it): otherwise the member would be logged out.
    [updated] = await deps.db
      .update(channels)
      .set(values)
      .where(
        and(
          eq(channels.id, channelId),
          eq(channels.status, 'connected'),
          eq(channels.refreshTokenSealed, claimed.refreshTokenSealed!),
        ),
      )
      .returning();
  }
  // No row: a disconnect or reconnect happened meanwhile; their state wins.
  if (!updated) return { kind: 'skipped', row: await readChannelRow(deps.db, channelId) };
  return { kind: 'refreshed', row: updated };
}

/** Refusals that mean the refresh token itself is no good (as opposed to a passing outage). */
const DEFINITIVE: PlatformErrorKind[] = ['exchange_failed', 'expired_token', 'bad_request'];

async function recordRefreshFailure(
  deps: AppDeps,
  row: ChannelRow,
  lease: number,
  err: PlatformError | VaultError,
): Promise<ChannelRow | null> {
  const now = deps.clock.now();
  if (err instanceof PlatformError && err.kind === 'revoked_token') {
    return revokeChannel(deps, { channelId: row.id, reason: 'revoked_at_platform', lease });
  }
  let status = row.status;
  if (err instanceof VaultError || (err instanceof PlatformError && err.kind === 'missing_scope'))
    status = 'error';
  else if (DEFINITIVE.includes(err.kind) && isLapsed(row, now)) status = 'expired';
  const [updated] = await deps.db
    .update(channels)
    .set({ status, lastError: describe(err), refreshLeaseUntil: null, updatedAt: now })
    .where(and(eq(channels.id, row.id), eq(channels.refreshLeaseUntil, lease)))
    .returning();
  return updated ?? readChannelRow(deps.db, row.id);
}

async function releaseLease(deps: AppDeps, channelId: string, lease: number) {
  await deps.db
    .update(channels)
    .set({ refreshLeaseUntil: null })
    .where(and(eq(channels.id, channelId), eq(channels.refreshLeaseUntil, lease)));
}

/** Polls until no live lease is held on the channel (bounded), then returns the row. */
async function waitForLease(deps: AppDeps, channelId: string): Promise<ChannelRow | null> {
  const deadline = Date.now() + LEASE_WAIT_MS;
  for (;;) {
    const row = await readChannelRow(deps.db, channelId);
    const held = row?.refreshLeaseUntil != null && row.refreshLeaseUntil >= deps.clock.now();
    if (!held || Date.now() >= deadline) return row;
    await delay(50);
  }
}

import type { AppDeps } from '../../context.ts';
import { UpstreamFailed } from '../../domain/errors.ts';
import { type Platform, PlatformError } from '../../platforms/platform.ts';
import { VaultError } from '../../vault/vault.ts';
import { type ChannelTools, requireChannelTools } from './channel-config.ts';
import { ChannelUnusable, PLATFORM_VERDICTS } from './channel-problem.ts';
import { type ChannelRow, loadChannelRow, toChannel } from './channel-row.ts';
import { markError, markExpired, revokeChannel } from './channel-status.ts';
import {
  canRefresh,
  isLapsed,
  isRefreshDue,
  openAccessToken,
  refreshChannelTokens,
} from './channel-tokens.ts';
import type { Channel } from './channels.schemas.ts';

/** What a platform call needs; the token lives only for the duration of `fn`. */
export interface ChannelAccess {
  platform: Platform;
  /** Plaintext access token: pass it to the adapter, never log, store or return it. */
  accessToken: string;
  /** The author reference to post as (platformA: urn:li:person:{id}). */
  authorRef: string;
  /** The channel's public shape (no token material). */
  channel: Channel;
}

/**
 * The one way publishing, metrics and any other feature acts on a member's channel.
 *
 *   await withChannelAccess(deps, { accountId, channelId }, ({ platform, accessToken, authorRef }) =>
 *     platform.publish({ accessToken, authorRef, text, media }));
 *
 * Before `fn`:
 * - 503 `not_configured` when the vault key or the platform's app credentials are missing;
 * - 404 `not_found` when the channel is not the account's;
 * - ChannelUnusable (channel-problem.ts): 409 `channel_revoked` (status revoked), 409
 *   `channel_expired` (status expired, or the token lapsed with no usable refresh token: the
 *   channel becomes expired), 409 `channel_error` (status error, e.g. a missing scope, or a
 *   stored token that no configured vault key opens). Each means the member must reconnect;
 * - the token is refreshed ahead of expiry when a refresh token exists. If that refresh fails
 *   while the old token is still valid, `fn` runs with the old one; if the token has lapsed
 *   and the platform could not be reached, 502 `refresh_failed`.
 *
 * When `fn` throws a PlatformError:
 * - `expired_token`: the token is refreshed (once) and `fn` runs ONCE MORE with the new token.
 *   So `fn` may run twice, but only after its first run was refused for the token, before the
 *   platform acted. If the refresh is refused the channel becomes `expired` and the original
 *   error is rethrown; if the refresh hit a transient outage, that PlatformError (retryable)
 *   is thrown and the status is left alone. No refresh token: `expired`, rethrown.
 * - `revoked_token`: the channel becomes `revoked` (tokens wiped, `channel.disconnected`
 *   recorded) and the error is rethrown: answer 409 `channel_revoked` to the caller.
 * - `missing_scope`: the channel becomes `error`; rethrown.
 *   (These three are PLATFORM_VERDICTS; channelProblemOf names the problem for a caller.)
 * - anything else (rate_limited, unavailable, duplicate, outcome_unknown, ...) is rethrown
 *   unchanged and the channel is untouched.
 * Errors that are not PlatformErrors pass through untouched.
 */
export async function withChannelAccess<T>(
  deps: AppDeps,
  target: {
    accountId: string;
    channelId: string;
    /**
     * The channel's row as read a moment ago with others (a batch of due posts reads its
     * channels in one statement): used instead of reading it again if it is that channel of
     * that account. Every check below applies to it the same.
     */
    row?: ChannelRow;
    /**
     * The vault and adapter, checked once by a caller acting many times (a publish run sends
     * each part through here): used when the adapter is the channel's platform's.
     */
    tools?: ChannelTools;
  },
  fn: (access: ChannelAccess) => Promise<T>,
): Promise<T> {
  // Not configured answers before a channel is looked up (503 whatever the channel id).
  if (!target.tools) requireChannelTools(deps);
  const given = target.row;
  const loaded =
    given?.id === target.channelId && given.accountId === target.accountId
      ? given
      : await loadChannelRow(deps.db, target.accountId, target.channelId);
  const tools =
    target.tools?.platform.id === loaded.platform ? target.tools : requireChannelTools(deps, loaded.platform);
  const row = await ensureFreshToken(deps, tools, loaded);
  try {
    return await fn(accessFor(deps, tools, row));
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    if (err.kind === 'expired_token' && canRefresh(row, deps.clock.now())) {
      const renewed = await renewAfterRejection(deps, tools, row);
      if (renewed) {
        try {
          return await fn(accessFor(deps, tools, renewed));
        } catch (again) {
          if (again instanceof PlatformError) await applyVerdict(deps, renewed, again);
          throw again;
        }
      }
    }
    await applyVerdict(deps, row, err);
    throw err;
  }
}

/** 409 unless the channel can be used. */
function assertUsable(row: ChannelRow): void {
  if (row.status === 'revoked')
    throw new ChannelUnusable(
      'channel_revoked',
      'The channel was disconnected or revoked at the platform; reconnect it.',
    );
  if (row.status === 'expired' || (row.status === 'connected' && !row.accessTokenSealed))
    throw new ChannelUnusable(
      'channel_expired',
      "The channel's access has expired; the member must reconnect it.",
    );
  if (row.status === 'error')
    throw new ChannelUnusable(
      'channel_error',
      'The channel needs attention (e.g. a permission was not granted); the member must reconnect it.',
    );
}

async function ensureFreshToken(deps: AppDeps, tools: ChannelTools, loaded: ChannelRow): Promise<ChannelRow> {
  assertUsable(loaded);
  const now = deps.clock.now();
  if (!canRefresh(loaded, now)) {
    if (!isLapsed(loaded, now)) return loaded;
    const current = (await markExpired(deps, loaded.id, 'access token lapsed; no refresh token')) ?? loaded;
    assertUsable(current);
    return current;
  }
  if (!isRefreshDue(loaded, now)) return loaded;
  const outcome = await refreshChannelTokens(deps, tools, loaded, { wait: true });
  const row = outcome.row ?? loaded;
  assertUsable(row);
  if (outcome.kind === 'failed' && isLapsed(row, deps.clock.now())) {
    throw new UpstreamFailed(
      'refresh_failed',
      `Renewing the channel's token failed: ${outcome.error.message}`,
    );
  }
  return row;
}

/**
 * The platform refused a token we thought valid: refresh now. Returns the row to retry with,
 * or null when there is no new token to try (the caller then marks the channel expired).
 * A transient refresh failure is thrown as is: the status is not touched for an outage.
 */
async function renewAfterRejection(
  deps: AppDeps,
  tools: ChannelTools,
  row: ChannelRow,
): Promise<ChannelRow | null> {
  const outcome = await refreshChannelTokens(deps, tools, row, { wait: true });
  if (outcome.kind === 'refreshed') return outcome.row;
  if (outcome.kind === 'skipped') {
    // Another process refreshed meanwhile: its token is worth one try.
    const current = outcome.row;
    if (
      current?.status === 'connected' &&
      current.accessTokenSealed &&
      current.accessTokenSealed !== row.accessTokenSealed
    )
      return current;
    return null;
  }
  if (outcome.error instanceof PlatformError && outcome.error.retryable) throw outcome.error;
  return null;
}

/** Applies what the platform's refusal says about the channel. */
async function applyVerdict(deps: AppDeps, row: ChannelRow, err: PlatformError): Promise<void> {
  const verdict = PLATFORM_VERDICTS[err.kind];
  if (verdict === 'channel_expired')
    await markExpired(deps, row.id, 'platform rejected the token as expired');
  else if (verdict === 'channel_revoked')
    await revokeChannel(deps, { channelId: row.id, reason: 'revoked_at_platform' });
  else if (verdict === 'channel_error')
    await markError(deps, row.id, 'platform denied access: missing scope');
}

function accessFor(deps: AppDeps, tools: ChannelTools, row: ChannelRow): ChannelAccess {
  let accessToken: string | null;
  try {
    accessToken = openAccessToken(deps.memory.openedTokens, tools.vault, row);
  } catch (err) {
    if (!(err instanceof VaultError)) throw err;
    throw new ChannelUnusable(
      'channel_error',
      "The channel's stored token does not open with the configured vault keys (was a key dropped from KIT_VAULT_OLD_KEYS?); reconnect the channel.",
    );
  }
  if (!accessToken)
    throw new ChannelUnusable(
      'channel_expired',
      "The channel's access has expired; the member must reconnect it.",
    );
  return {
    platform: tools.platform,
    accessToken,
    authorRef: tools.platform.authorRef(row.platformUserId ?? ''),
    channel: toChannel(row),
  };
}

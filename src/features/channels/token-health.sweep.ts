import { and, asc, eq, gt, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context.ts';
import { channels } from '../../db/schema/index.ts';
import { claimBatch } from '../../jobs/claim-batch.ts';
import { forEachBounded } from '../../jobs/pool.ts';
import type { Sweep } from '../../jobs/runner.ts';
import { TOKEN_PROBE_INTERVAL_MS, TOKEN_REFRESH_RETRY_AFTER_MS } from '../../jobs/schedules.ts';
import { PlatformError } from '../../platforms/platform.ts';
import { VaultError } from '../../vault/vault.ts';
import { SweepName } from '../../wake/sweep-names.ts';
import { type ChannelTools, channelTools } from './channel-config.ts';
import { markExpired, revokeChannel } from './channel-status.ts';
import { canRefresh, openAccessToken, REFRESH_AHEAD_MAX_MS, refreshChannelTokens } from './channel-tokens.ts';
import { purgeOAuthStates } from './oauth-state.ts';

export const CHANNEL_HEALTH_SWEEP = SweepName.channelHealth;
/** Channels refreshed or probed per run; a full batch makes the runner go again at once. */
export const CHANNEL_HEALTH_BATCH = 50;
/** Platform userinfo calls in flight at once while probing. */
const PROBE_CONCURRENCY = 4;
export const PROBE_INTERVAL_MS = TOKEN_PROBE_INTERVAL_MS;
export const REFRESH_RETRY_AFTER_MS = TOKEN_REFRESH_RETRY_AFTER_MS;

/**
 * Token health, safe in any number of worker processes:
 * 1. connected channels whose token lapsed with no usable refresh token become `expired`
 *    (one atomic UPDATE);
 * 2. tokens at or near expiry (see refreshDueAt) are refreshed ahead of time; each row is
 *    claimed with the refresh lease, so two workers never refresh the same channel;
 * 3. each connected channel's token is shown to the platform (userinfo) every
 *    PROBE_INTERVAL_MS, claimed in batches (claimBatch stamps last_checked_at): a revoked token
 *    moves the channel to `revoked` (tokens wiped, `channel.disconnected` emitted), an
 *    expired one is refreshed or the channel becomes `expired`;
 * 4. OAuth states long expired are purged.
 */
export const channelHealthSweep: Sweep = {
  name: SweepName.channelHealth,
  batchSize: CHANNEL_HEALTH_BATCH,
  async run(deps, signal) {
    let handled = await expireLapsed(deps);
    // Each configured platform's channels, with that platform's adapter.
    for (const id of deps.platforms.keys()) {
      const tools = channelTools(deps, id);
      if (!tools) continue;
      handled += await refreshDue(deps, tools, signal);
      handled += await probeTokens(deps, tools, signal);
    }
    await purgeOAuthStates(deps);
    return handled;
  },
};

async function expireLapsed(deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  const rows = await deps.db
    .update(channels)
    .set({ status: 'expired', lastError: 'access token lapsed; no usable refresh token', updatedAt: now })
    .where(
      and(
        eq(channels.status, 'connected'),
        lte(channels.expiresAt, now),
        or(isNull(channels.refreshTokenSealed), lte(channels.refreshExpiresAt, now)),
      ),
    )
    .returning({ id: channels.id });
  return rows.length;
}

async function refreshDue(deps: AppDeps, tools: ChannelTools, signal: AbortSignal): Promise<number> {
  const now = deps.clock.now();
  // Same rule as refreshDueAt: a fifth of the lifetime ahead, at most REFRESH_AHEAD_MAX_MS.
  const dueAt = sql`${channels.expiresAt} - least(${REFRESH_AHEAD_MAX_MS}::bigint, (${channels.expiresAt} - coalesce(${channels.lastRefreshAt}, 0)) / 5)`;
  const candidates = await deps.db
    .select({ id: channels.id, accessTokenSealed: channels.accessTokenSealed })
    .from(channels)
    .where(
      and(
        eq(channels.status, 'connected'),
        eq(channels.platform, tools.platform.id),
        isNotNull(channels.refreshTokenSealed),
        or(isNull(channels.refreshExpiresAt), gt(channels.refreshExpiresAt, now)),
        isNotNull(channels.expiresAt),
        lte(channels.expiresAt, now + REFRESH_AHEAD_MAX_MS),
        sql`${dueAt} <= ${now}`,
        or(isNull(channels.refreshLeaseUntil), lt(channels.refreshLeaseUntil, now)),
        or(isNull(channels.lastError), lt(channels.updatedAt, now - REFRESH_RETRY_AFTER_MS)),
      ),
    )
    .orderBy(asc(channels.expiresAt))
    .limit(CHANNEL_HEALTH_BATCH);
  let handled = 0;
  for (const candidate of candidates) {
    if (signal.aborted) break;
    // Claimed only if its token is still the one read here: a racing worker's refresh wins.
    const outcome = await refreshChannelTokens(deps, tools, candidate);
    if (outcome.kind !== 'skipped') handled++;
  }
  return handled;
}

async function probeTokens(deps: AppDeps, tools: ChannelTools, signal: AbortSignal): Promise<number> {
  if (signal.aborted) return 0;
  const now = deps.clock.now();
  const claimed = await claimBatch(deps.db, {
    table: channels,
    where: and(
      eq(channels.status, 'connected'),
      eq(channels.platform, tools.platform.id),
      isNotNull(channels.accessTokenSealed),
      or(isNull(channels.lastCheckedAt), lt(channels.lastCheckedAt, now - PROBE_INTERVAL_MS)),
      or(isNull(channels.refreshLeaseUntil), lt(channels.refreshLeaseUntil, now)),
    ),
    orderBy: sql`${channels.lastCheckedAt} asc nulls first`,
    limit: CHANNEL_HEALTH_BATCH,
    // The stamp is the claim: no worker probes the channel again within the interval.
    set: { lastCheckedAt: now },
  });
  // Claimed channels are all probed, even on shutdown, or they would wait a whole interval.
  await forEachBounded(claimed, PROBE_CONCURRENCY, (channel) => probeOne(deps, tools, channel));
  return claimed.length;
}

/** Shows one channel's token to the platform and acts on a certain answer. */
async function probeOne(deps: AppDeps, tools: ChannelTools, claimed: typeof channels.$inferSelect) {
  const id = claimed.id;
  let accessToken: string | null;
  try {
    accessToken = openAccessToken(deps.memory.openedTokens, tools.vault, claimed);
  } catch (err) {
    if (!(err instanceof VaultError)) throw err;
    deps.log.warn({ channelId: id }, 'channel token does not open with the vault keys');
    return;
  }
  if (!accessToken) return;
  try {
    await tools.platform.identify({ accessToken });
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    if (err.kind === 'revoked_token') {
      deps.log.info({ channelId: id }, 'channel revoked at the platform');
      await revokeChannel(deps, { channelId: id, reason: 'revoked_at_platform' });
    } else if (err.kind === 'expired_token') {
      if (canRefresh(claimed, deps.clock.now())) await refreshChannelTokens(deps, tools, claimed);
      else await markExpired(deps, id, 'platform rejected the token as expired');
    }
    // Outages and other answers say nothing certain about the token: try again next interval.
  }
}

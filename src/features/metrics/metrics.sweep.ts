import { and, asc, eq, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context.ts';
import { channels, posts } from '../../db/schema/index.ts';
import { DomainError } from '../../domain/errors.ts';
import { claimBatch } from '../../jobs/claim-batch.ts';
import { forEachBounded } from '../../jobs/pool.ts';
import type { Sweep } from '../../jobs/runner.ts';
import { PlatformError } from '../../platforms/platform.ts';
import { SweepName } from '../../wake/sweep-names.ts';
import { pollPostMetrics } from './metrics.service.ts';

/** Platform reads in flight at once: gentle on the platform's rate limits. */
const POLL_CONCURRENCY = 4;

/**
 * Claims up to `budget` published posts to poll: least recently polled first (never-polled
 * posts lead), only on connected channels, and not polled within METRICS_MIN_POLL_INTERVAL_MS.
 * The claim stamps `metricsPolledAt` (the lease: the post is not claimable again before the
 * interval), so concurrent workers take different posts and a failing post waits its turn.
 */
function claimPostsToPoll(deps: AppDeps, budget: number) {
  const now = deps.clock.now();
  const staleBefore = now - deps.config.METRICS_MIN_POLL_INTERVAL_MS;
  return claimBatch(deps.db, {
    table: posts,
    join: { table: channels, on: eq(channels.id, posts.channelId) },
    where: and(
      eq(posts.status, 'published'),
      isNotNull(posts.platformPostId),
      eq(channels.status, 'connected'),
      or(isNull(posts.metricsPolledAt), lte(posts.metricsPolledAt, staleBefore)),
    ),
    orderBy: [sql`${posts.metricsPolledAt} asc nulls first`, asc(posts.publishedAt)],
    limit: budget,
    set: { metricsPolledAt: now },
  });
}

/** One run: poll a budget's worth of posts; returns how many were polled. */
export async function pollDueMetrics(deps: AppDeps, signal?: AbortSignal): Promise<number> {
  const claimed = await claimPostsToPoll(deps, deps.config.METRICS_POLL_BUDGET);
  let polled = 0;
  await forEachBounded(
    claimed,
    POLL_CONCURRENCY,
    async (row) => {
      try {
        await pollPostMetrics(deps, row);
        polled++;
      } catch (err) {
        // The channel's own state (revoked, expired) is updated by channel access; the post is
        // tried again after the interval. Expected refusals are not errors of ours.
        const expected = err instanceof DomainError || err instanceof PlatformError;
        deps.log[expected ? 'warn' : 'error'](
          { err: expected ? undefined : err, postId: row.id, reason: (err as Error).message },
          'metrics poll failed',
        );
      }
    },
    signal,
  );
  return polled;
}

/** Per tick (SWEEP_INTERVAL_MS, a minute by default): the least recently polled posts, within budget. */
export const metricsSweep: Sweep = {
  name: SweepName.metrics,
  run: (deps, signal) => pollDueMetrics(deps, signal),
};

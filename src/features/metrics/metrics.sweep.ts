import { and, asc, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context.ts';
import { channels, posts } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import type { Sweep } from '../../jobs/runner.ts';
import { PlatformError } from '../../platforms/platform.ts';
import { pollPostMetrics } from './metrics.service.ts';

export const METRICS_SWEEP = 'metrics';
/** Platform reads in flight at once: gentle on the platform's rate limits. */
const POLL_CONCURRENCY = 4;

/**
 * Claims up to `budget` published posts to poll: least recently polled first (never-polled
 * posts lead), only on connected channels, and not polled within METRICS_MIN_POLL_INTERVAL_MS.
 * The claim stamps `metricsPolledAt` in the same statement set as the SKIP LOCKED read, so
 * concurrent workers take different posts and a failing post waits its turn like the rest.
 */
async function claimPostsToPoll(deps: AppDeps, budget: number) {
  const now = deps.clock.now();
  const staleBefore = now - deps.config.METRICS_MIN_POLL_INTERVAL_MS;
  return deps.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: posts.id })
      .from(posts)
      .innerJoin(channels, eq(channels.id, posts.channelId))
      .where(
        and(
          eq(posts.status, 'published'),
          isNotNull(posts.platformPostId),
          eq(channels.status, 'connected'),
          or(isNull(posts.metricsPolledAt), lte(posts.metricsPolledAt, staleBefore)),
        ),
      )
      .orderBy(sql`${posts.metricsPolledAt} asc nulls first`, asc(posts.publishedAt))
      .limit(budget)
      .for('update', { of: posts, skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(posts)
      .set({ metricsPolledAt: now })
      .where(
        inArray(
          posts.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
  });
}

/** One run: poll a budget's worth of posts; returns how many were polled. */
export async function pollDueMetrics(deps: AppDeps, signal?: AbortSignal): Promise<number> {
  const claimed = await claimPostsToPoll(deps, deps.config.METRICS_POLL_BUDGET);
  let next = 0;
  let polled = 0;
  const workers = Array.from({ length: Math.min(POLL_CONCURRENCY, claimed.length) }, async () => {
    while (next < claimed.length && !signal?.aborted) {
      const row = claimed[next++]!;
      try {
        await pollPostMetrics(deps, row);
        polled++;
      } catch (err) {
        // The channel's own state (revoked, expired) is updated by channel access; the post is
        // tried again after the interval. Expected refusals are not errors of ours.
        const expected = err instanceof AppError || err instanceof PlatformError;
        deps.log[expected ? 'warn' : 'error'](
          { err: expected ? undefined : err, postId: row.id, reason: (err as Error).message },
          'metrics poll failed',
        );
      }
    }
  });
  await Promise.all(workers);
  return polled;
}

/** Per tick (SWEEP_INTERVAL_MS, a minute by default): the least recently polled posts, within budget. */
export const metricsSweep: Sweep = {
  name: METRICS_SWEEP,
  run: (deps, signal) => pollDueMetrics(deps, signal),
};

import { and, inArray, isNotNull, lt, not, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context.ts';
import { metricSnapshots, posts } from '../../db/schema/index.ts';
import type { Sweep } from '../../jobs/runner.ts';
import { SweepName } from '../../wake/sweep-names.ts';
import { ageSql, bracketsMilestone, overPost } from './snapshot-series.ts';

const DAY_MS = 86_400_000;
/** Snapshots one run deletes at most; a full batch runs again at once. */
export const PRUNE_BATCH = 5_000;
/** Snapshots age out by the hour: looking more often than this finds little. */
const PRUNE_EVERY_MS = 3_600_000;

/**
 * Deletes up to `limit` snapshots fetched before the retention window
 * (METRICS_SNAPSHOT_RETENTION_DAYS; 0 keeps all). Never deleted: a post's latest snapshot (it
 * is the one analytics counts) and the snapshots on either side of 1 h, 24 h and 7 d after
 * publishing (content decay reads them), so pruning changes neither. The window function runs
 * over the old snapshots only: the newest old one of each post is kept either way, so a
 * snapshot whose neighbour is still in the window is never judged without it.
 */
export async function pruneMetricSnapshots(deps: AppDeps, limit = PRUNE_BATCH): Promise<number> {
  const days = deps.config.METRICS_SNAPSHOT_RETENTION_DAYS;
  if (days === 0) return 0;
  const cutoff = deps.clock.now() - days * DAY_MS;
  const old = deps.db
    .select({
      id: sql<string>`${metricSnapshots.id}`.as('id'),
      age: sql`${ageSql}`.as('age'),
      prevAge: sql`${overPost(sql`lag(${ageSql})`)}`.as('prev_age'),
      nextAge: sql`${overPost(sql`lead(${ageSql})`)}`.as('next_age'),
    })
    .from(metricSnapshots)
    .innerJoin(posts, sql`${posts.id} = ${metricSnapshots.postId}`)
    .where(and(lt(metricSnapshots.fetchedAt, cutoff), isNotNull(posts.publishedAt)))
    .as('old');
  const doomed = deps.db
    .select({ id: old.id })
    .from(old)
    .where(
      and(
        isNotNull(old.nextAge),
        not(bracketsMilestone(sql`${old.age}`, sql`${old.prevAge}`, sql`${old.nextAge}`)),
      ),
    )
    .limit(limit);
  const deleted = await deps.db
    .delete(metricSnapshots)
    .where(inArray(metricSnapshots.id, doomed))
    .returning({ id: metricSnapshots.id });
  return deleted.length;
}

declare module '../../context.ts' {
  interface ProcessMemory {
    /** When this process last pruned snapshots, and whether that run deleted a full batch. */
    lastPrune: { at: number; full: boolean } | null;
  }
}

/** Hourly (sooner after a full batch): any number of processes may run it, deletes are idempotent. */
export const metricsRetentionSweep: Sweep = {
  name: SweepName.metricsRetention,
  batchSize: PRUNE_BATCH,
  run: async (deps) => {
    const now = deps.clock.now();
    const last = deps.memory.lastPrune;
    if (last && !last.full && now - last.at < PRUNE_EVERY_MS) return 0;
    const deleted = await pruneMetricSnapshots(deps);
    deps.memory.lastPrune = { at: now, full: deleted === PRUNE_BATCH };
    return deleted;
  },
};

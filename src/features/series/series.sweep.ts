import { and, asc, eq, isNull, lte, or } from 'drizzle-orm';
import type { AppDeps } from '../../context.ts';
import { series } from '../../db/schema/index.ts';
import { claimBatch } from '../../jobs/claim-batch.ts';
import type { Sweep } from '../../jobs/runner.ts';
import { randomBase62 } from '../../lib/ids.ts';
import { SweepName } from '../../wake/sweep-names.ts';
import { wakeAfterCommit } from '../../wake/wake-on-commit.ts';
import { extendSeries, SERIES_HORIZON_MS, type SeriesRow } from './series-extend.ts';

/** Series extended per run; a full batch makes the runner go again at once. */
const BATCH = 20;
/**
 * How long a claim holds its series: far longer than extending 20 series takes (each at most
 * 100 inserts), so only a dead or frozen run's claim lapses.
 */
export const SERIES_LEASE_MS = 120_000;

/**
 * Claims up to BATCH series whose horizon needs extending through the jobs kit (claimBatch:
 * SKIP LOCKED, so workers take disjoint batches), each held for SERIES_LEASE_MS under this
 * run's token. A claim whose run died lapses and is taken again.
 */
export function claimDueSeries(deps: AppDeps, token: string): Promise<SeriesRow[]> {
  const now = deps.clock.now();
  return claimBatch(deps.db, {
    table: series,
    where: and(
      eq(series.status, 'active'),
      lte(series.nextAt, now + SERIES_HORIZON_MS),
      or(isNull(series.leaseUntil), lte(series.leaseUntil, now)),
    ),
    orderBy: asc(series.nextAt),
    limit: BATCH,
    set: { claimedBy: token, leaseUntil: now + SERIES_LEASE_MS },
  });
}

/**
 * Extends one claimed series in its own transaction with the occurrences it gains, and frees
 * the claim. The first statement takes the row only while this run's token still holds it (and
 * locks it for the transaction): a run whose lease lapsed and was taken over extends nothing,
 * so each step of a series is done once. A run killed half-way rolls back; its claim lapses and
 * the next run redoes the step. Returns how many occurrences it created.
 */
export async function extendClaimed(deps: AppDeps, id: string, token: string): Promise<number> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [held] = await tx
      .update(series)
      .set({ claimedBy: null, leaseUntil: null })
      .where(and(eq(series.id, id), eq(series.claimedBy, token), eq(series.status, 'active')))
      .returning();
    if (!held) return 0;
    const { created } = await extendSeries(tx, held, now);
    if (created.length > 0) wakeAfterCommit(tx, SweepName.publish);
    return created.length;
  });
}

/**
 * Keeps every active series' occurrences created SERIES_HORIZON_MS ahead: claims a batch, then
 * extends each. Any number of workers run it side by side. A series whose extension fails keeps
 * its claim until the lease lapses, so the others in the batch go on and it is tried again.
 */
export async function extendDueSeries(deps: AppDeps): Promise<number> {
  const token = `${deps.instanceId}:${randomBase62(10)}`;
  const claimed = await claimDueSeries(deps, token);
  for (const row of claimed) {
    try {
      await extendClaimed(deps, row.id, token);
    } catch (err) {
      deps.log.error(
        { err, seriesId: row.id },
        'could not extend a series; it is retried when its claim lapses',
      );
    }
  }
  return claimed.length;
}

export const seriesSweep: Sweep = {
  name: SweepName.series,
  run: (deps) => extendDueSeries(deps),
  batchSize: BATCH,
};

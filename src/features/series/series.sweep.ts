import { and, asc, eq, lte } from 'drizzle-orm';
import type { AppDeps } from '../../context.ts';
import { series } from '../../db/schema/index.ts';
import type { Sweep } from '../../jobs/runner.ts';
import { SweepName } from '../../wake/sweep-names.ts';
import { wakeAfterCommit } from '../../wake/wake-on-commit.ts';
import { extendSeries, SERIES_HORIZON_MS } from './series-extend.ts';

/** Series extended per run; a full batch makes the runner go again at once. */
const BATCH = 20;

/**
 * Keeps every active series' occurrences created SERIES_HORIZON_MS ahead. Series rows are
 * taken with FOR UPDATE SKIP LOCKED in one transaction with the occurrences they gain, so any
 * number of workers run it side by side, a worker killed half-way leaves nothing behind (the
 * transaction rolls back and the next run redoes it), and each occurrence is created once.
 */
export async function extendDueSeries(deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(series)
      .where(and(eq(series.status, 'active'), lte(series.nextAt, now + SERIES_HORIZON_MS)))
      .orderBy(asc(series.nextAt))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    let created = 0;
    for (const row of due) created += (await extendSeries(tx, row, now)).created.length;
    if (created > 0) wakeAfterCommit(tx, SweepName.publish);
    return due.length;
  });
}

export const seriesSweep: Sweep = {
  name: SweepName.series,
  run: (deps) => extendDueSeries(deps),
  batchSize: BATCH,
};

import type { Sweep } from '../../jobs/runner.ts';
import { SweepName } from '../../wake/sweep-names.ts';
import { refitStalePersonalModels } from './personal-models.ts';

/** Accounts refitted per pass; a fit of 1,000 posts takes well under a second. */
const FITS_PER_RUN = 8;

/**
 * Refits personal models whose inputs changed: woken by history imports and deletes, and
 * finding metric polls and a new global model by itself each pass. The stale flag is a row,
 * so a change is never lost, and a fit claimed by a process that died is retaken after its lease.
 */
export const personalModelSweep: Sweep = {
  name: SweepName.personal,
  batchSize: FITS_PER_RUN,
  run: (deps, signal) => refitStalePersonalModels(deps, FITS_PER_RUN, signal),
};

import type { Call } from '../../context.ts';
import { pairwiseAccuracy, spearman } from '../../lib/rank-stats.ts';
import { getCalibration } from './analytics.service.ts';
import type { CalibrationRow, CalibrationSummary } from './metrics.schemas.ts';

const round3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

/**
 * How well the recorded scores have ranked this account's own results: Spearman between
 * score and engagements, and the share of post pairs (engagements 2x apart or more) the
 * score orders the right way. Within one account, so audience size cancels out.
 */
export function summarizeCalibration(rows: readonly CalibrationRow[]): CalibrationSummary {
  const scores = rows.map((r) => r.score);
  const outcomes = rows.map((r) => r.engagements);
  return {
    posts: rows.length,
    spearman: round3(spearman(scores, outcomes)),
    pairwiseAccuracy: round3(pairwiseAccuracy(scores, outcomes).accuracy),
  };
}

/** GET /v1/calibration: the rows and their summary. */
export async function getCalibrationReport({
  ctx,
}: Call<void>): Promise<{ calibration: CalibrationRow[]; summary: CalibrationSummary }> {
  const calibration = await getCalibration({ ctx, input: undefined });
  return { calibration, summary: summarizeCalibration(calibration) };
}

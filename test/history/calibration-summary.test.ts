import { describe, expect, it } from 'vitest';
import { summarizeCalibration } from '../../src/features/metrics/calibration-summary.ts';
import type { CalibrationRow } from '../../src/features/metrics/metrics.schemas.ts';

const row = (score: number, engagements: number): CalibrationRow => ({
  postId: `pst_${score}`,
  platform: 'platformA',
  score,
  verdict: null,
  publishedAt: null,
  impressions: null,
  likes: engagements,
  comments: null,
  shares: null,
  clicks: null,
  engagements,
});

describe('calibration summary', () => {
  it('measures how well the score ranked the account’s own posts', () => {
    // Engagement ranks 1,3,2,4 against score ranks 1..4: rho = 1 - 6*2/(4*15) = 0.8. Of the
    // pairs 2x apart (all but 10 vs 5), the score orders every one right.
    const rows = [row(50, 1), row(60, 10), row(70, 5), row(80, 100)];
    expect(summarizeCalibration(rows)).toEqual({ posts: 4, spearman: 0.8, pairwiseAccuracy: 1 });
    const reversed = [row(80, 1), row(70, 10), row(60, 5), row(50, 100)];
    expect(summarizeCalibration(reversed)).toEqual({ posts: 4, spearman: -0.8, pairwiseAccuracy: 0 });
  });

  it('says nothing it cannot measure', () => {
    expect(summarizeCalibration([])).toEqual({ posts: 0, spearman: null, pairwiseAccuracy: null });
    expect(summarizeCalibration([row(50, 3), row(60, 3), row(70, 3)])).toEqual({
      posts: 3,
      spearman: null,
      pairwiseAccuracy: null,
    });
  });
});

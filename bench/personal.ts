import { byAuthor, readAllData } from '../scripts/lib/datasets.ts';
import { withPersonal } from '../src/features/history/personal-score.ts';
import { scoreModel } from '../src/scoring/learned/model.ts';
import { FEATURE_NAMES, globalWeights, offlineScored, reportable } from '../src/scoring/personal/features.ts';
import { fitPersonalModel } from '../src/scoring/personal/fit.ts';
import { scoreHeuristically, scoreHeuristicallyKeeping } from '../src/scoring/scorer.ts';
import { fmt, report } from './lib.ts';

/**
 * bench/personal, in one run on one core:
 * 1. Personal-model fit for 100 and 1,000 history posts (real posts of ../shared/data/): the
 *    features and offline score of every post plus the fit, as a background refit computes them
 *    (the history read from the database is not included). Median of 5 runs. Target < 1 s for 1,000.
 * 2. Scoring throughput with a personal model beside the global score alone (the offline engine,
 *    1,000-post model), on the same posts.
 */
const global = scoreModel();
const weights = globalWeights(global);
const posts = byAuthor(readAllData(), 1).flat();
const sample = (n: number) => posts.slice(0, n);

function fitOnce(n: number) {
  const rows = sample(n);
  const started = performance.now();
  const read = rows.map((p) => offlineScored({ post: p.text, media: p.media }, global));
  const featured = performance.now();
  const model = fitPersonalModel({
    names: FEATURE_NAMES,
    x: read.map((r) => r.x),
    engagement: rows.map((p) => p.engagement),
    overall: read.map((r) => r.overall),
    globalWeights: weights,
    globalVersion: global.version,
    reportable,
  });
  const done = performance.now();
  return { ms: done - started, fitMs: done - featured, model: model! };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
fitOnce(1_000); // warm the JIT
const runs100 = Array.from({ length: 5 }, () => fitOnce(100));
const runs1000 = Array.from({ length: 5 }, () => fitOnce(1_000));
const fit100 = median(runs100.map((r) => r.ms));
const fit1000 = median(runs1000.map((r) => r.ms));
const solve100 = median(runs100.map((r) => r.fitMs));
const solve1000 = median(runs1000.map((r) => r.fitMs));
const { model } = fitOnce(1_000);

function throughput(fn: (text: string) => unknown, ms: number): number {
  const texts = sample(2_000).map((p) => p.text);
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < ms) {
    for (const t of texts) fn(t);
    n += texts.length;
  }
  return n / ((performance.now() - started) / 1000);
}

// As the service does it (features/history/personal-score.ts): the post is scored once and the
// personal score reads that score's rules and features.
const stored = { version: 1, model };
const personalised = (post: string) => withPersonal(scoreHeuristicallyKeeping({ post }, global), stored);
throughput(personalised, 1_000); // warm
const globalRate = throughput((post) => scoreHeuristically({ post }, global), 3_000);
const personalRate = throughput(personalised, 3_000);

console.log(
  `personal-model fit, 100 history posts: ${fmt(fit100, 1)} ms (features ${fmt(fit100 - solve100, 1)} + fit ${fmt(solve100, 1)})`,
);
console.log(
  `personal-model fit, 1,000 history posts: ${fmt(fit1000, 1)} ms (features ${fmt(fit1000 - solve1000, 1)} + fit ${fmt(solve1000, 1)}; target < 1,000 ms)`,
);
console.log(`global score alone: ${fmt(globalRate)} posts/s`);
console.log(
  `global + personal score: ${fmt(personalRate)} posts/s (ratio ${(personalRate / globalRate).toFixed(2)})`,
);
report('personal', {
  fit100Ms: Number(fit100.toFixed(1)),
  fit1000Ms: Number(fit1000.toFixed(1)),
  solve100Ms: Number(solve100.toFixed(1)),
  solve1000Ms: Number(solve1000.toFixed(1)),
  globalPostsPerSec: Math.round(globalRate),
  personalPostsPerSec: Math.round(personalRate),
  ratio: Number((personalRate / globalRate).toFixed(3)),
});

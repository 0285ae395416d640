import { benchPosts } from './score-posts.ts';

/**
 * The offline engine in a fixed loop for instruction counts (bench/score-instructions.sh runs
 * it under callgrind): WARM rounds, then MEASURE rounds, over the first N of bench/score.ts's
 * 1,300-character posts. DIR picks the checkout whose scorer runs (default: this one).
 */
const dir = process.env.DIR ?? `${import.meta.dirname}/..`;
const { scoreHeuristically } = (await import(
  `${dir}/src/scoring/scorer.ts`
)) as typeof import('../src/scoring/scorer.ts');
const posts = benchPosts();
const use = posts.slice(0, Number(process.env.N ?? 100));
const rounds = (n: number) => {
  for (let r = 0; r < n; r++) for (const post of use) scoreHeuristically({ post });
};
rounds(Number(process.env.WARM ?? 10));
rounds(Number(process.env.MEASURE ?? 30));

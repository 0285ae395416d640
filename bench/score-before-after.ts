import { scoreHeuristically as now } from '../src/scoring/scorer.ts';
import { benchPosts } from './score-posts.ts';

/**
 * The offline engine of another checkout (BEFORE: a directory holding that commit's src/ and
 * packages/, with node_modules linked) against this one, in the same process: alternating
 * rounds of one CPU-second each on the 1,300-character posts bench/score.ts uses, posts per
 * second of this process's own CPU time. The median ratio is what a change did, whatever else
 * the machine is running. BENCH_ROUND_MS shortens the rounds: on a loaded machine, many short
 * rounds in turn spread what other processes take over both sides more evenly than a few long
 * ones.
 */
const beforeDir = process.env.BEFORE;
if (!beforeDir) throw new Error('set BEFORE to the directory of the version to compare with');
const { scoreHeuristically: before } = (await import(`${beforeDir}/src/scoring/scorer.ts`)) as {
  scoreHeuristically: typeof now;
};
const posts = benchPosts();
function rate(score: typeof now, cpuMs: number): number {
  const started = process.cpuUsage();
  let n = 0;
  let used = 0;
  while (used < cpuMs * 1000) {
    for (const post of posts) score({ post });
    n += posts.length;
    const u = process.cpuUsage(started);
    used = u.user + u.system;
  }
  return n / (used / 1e6);
}
rate(now, 1_500);
rate(before, 1_500);
const ratios: number[] = [];
const rates = { before: [] as number[], now: [] as number[] };
const roundMs = Number(process.env.BENCH_ROUND_MS ?? 1_000);
for (let round = 0; round < Number(process.env.BENCH_ROUNDS ?? 9); round++) {
  rates.before.push(rate(before, roundMs));
  rates.now.push(rate(now, roundMs));
  ratios.push(rates.now.at(-1)! / rates.before.at(-1)!);
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
console.log(
  `posts per CPU-second: before ${median(rates.before).toFixed(0)}, now ${median(rates.now).toFixed(0)}; now/before median ${median(ratios).toFixed(3)} (rounds ${ratios.map((r) => r.toFixed(2)).join(' ')})`,
);

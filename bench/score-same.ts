import { readAllData } from '../scripts/lib/datasets.ts';
import { goldenInput } from '../scripts/lib/score-golden.ts';
import { FEATURES } from '../src/scoring/learned/features.ts';
import { scoreHeuristicallyKeeping as now } from '../src/scoring/scorer.ts';
import type { ScoreInput } from '../src/scoring/types.ts';
import { benchPosts } from './score-posts.ts';

/**
 * The guard of speed work on the offline engine: this checkout's scorer and another's (BEFORE: a
 * directory holding that commit's src/, scripts/ and packages/, node_modules linked) must return
 * byte-identical output for every bench post and every real post of the authors who are not held
 * out, each as given and in a varied request (both platforms, media, context): the whole
 * ScoreResult JSON (scores, verdict, signals with their spans and concepts), the feature vector
 * the model read, and the spans of every feature the personal signals may ask for. Exits 1 at
 * the first difference, printing it. Digests of every real post are the test's guard
 * (test/intelligence/score-golden.test.ts); this one also covers the bench posts and the spans
 * no shown signal asks for, and says where two versions part.
 */
const beforeDir = process.env.BEFORE;
if (!beforeDir) throw new Error('set BEFORE to the directory of the version to compare with');
const { scoreHeuristicallyKeeping: before } = (await import(`${beforeDir}/src/scoring/scorer.ts`)) as {
  scoreHeuristicallyKeeping: typeof now;
};

const inputs: ScoreInput[] = [];
const bench = benchPosts();
bench.forEach((post, i) => {
  inputs.push({ post });
  inputs.push({ ...goldenInput({ text: post } as never, i), post });
});
readAllData()
  .filter((p) => !p.heldOut)
  .forEach((p, i) => {
    inputs.push({ post: p.text });
    inputs.push(goldenInput(p, i));
  });

const dump = (score: typeof now, input: ScoreInput) => {
  const kept = score(input);
  return JSON.stringify({
    result: kept.result,
    x: Array.from(kept.x),
    spans: FEATURES.map((f) => kept.spansFor(f.name)),
  });
};

let checked = 0;
for (const input of inputs) {
  const a = dump(before, input);
  const b = dump(now, input);
  if (a !== b) {
    let at = 0;
    while (a[at] === b[at]) at++;
    console.error(`differs on input ${checked}: ${JSON.stringify(input).slice(0, 200)}`);
    console.error(`before: ...${a.slice(Math.max(0, at - 200), at + 200)}`);
    console.error(`now:    ...${b.slice(Math.max(0, at - 200), at + 200)}`);
    process.exit(1);
  }
  checked++;
}
console.log(
  `identical output on ${checked} inputs (${bench.length} bench posts and the real posts, twice each)`,
);

import { join } from 'node:path';
import { median } from '../src/lib/rank-stats.ts';
import { detectArchetype } from '../src/scoring/rules/hook.ts';
import { extractFeatures } from '../src/scoring/text/text-features.ts';
import { DATA_DIR, isHeldOut } from './lib/datasets.ts';
import { readPostsCsv } from './lib/posts-csv.ts';

/**
 * npm run eval:scoring -- --archetypes
 *
 * The hook archetypes' benchmark figures (rules/hook.ts ARCHETYPE_NOTES, docs/scoring.md): on
 * the 786-post 2025-26 calibration set, which has follower counts, the median engagement per
 * follower ((reactions + comments) / followers) of the posts whose opening is of each archetype,
 * relative to the set's median; over all posts and over the training authors' (not held out).
 */

const FILE = 'linkedin-posts-2025.csv';
const rows = readPostsCsv(join(DATA_DIR, FILE)).map((r) => ({
  archetype: detectArchetype(extractFeatures(r.content).hook),
  rate: (r.reactions + r.comments) / r.followers,
  train: !isHeldOut(FILE, r.name),
}));
const all = median(rows.map((r) => r.rate));
const train = median(rows.filter((r) => r.train).map((r) => r.rate));
const lines = ['| archetype | posts | all | train |', '|---|---|---|---|'];
for (const a of ['story', 'statement', 'pure-number', 'contrarian', 'other', 'question'] as const) {
  const mine = rows.filter((r) => r.archetype === a);
  const t = mine.filter((r) => r.train);
  const x = (n: number) => `${n.toFixed(2)}x`;
  lines.push(
    `| ${a} | ${mine.length} | ${x(median(mine.map((r) => r.rate))! / all!)} | ${x(median(t.map((r) => r.rate))! / train!)} |`,
  );
}
process.stdout.write(`${rows.length} posts\n${lines.join('\n')}\n`);

import { writeFileSync } from 'node:fs';
import { scoreModel } from '../src/scoring/learned/model.ts';
import { scoreHeuristically } from '../src/scoring/scorer.ts';
import { byAuthor, DATA_FILES, type DataPost, readAllData } from './lib/datasets.ts';
import { overallV1 } from './lib/score-v1.ts';
import { pairedGain, type WithinAuthor, withinAuthor } from './lib/within-author.ts';

/**
 * npm run eval:scoring [-- --markdown <file>]
 *
 * Scores every post of ../shared/data/ with the offline engine (text and media type when the
 * export gives it; no author, follower or date hints) and prints, per data file and for the
 * held-out authors (a seeded split no training choice looked at, scripts/lib/datasets.ts):
 * - within-author Spearman: each author's (5+ posts) rank correlation between the predictor
 *   and log(1 + reactions + comments + reposts), averaged over authors;
 * - same-author pairwise accuracy: pairs of one author's posts whose engagement differs by 2x
 *   or more, ordered correctly (ties count half);
 * for score.v2 `overall`, the text-length baseline and the score.v1 engine's `overall`; beside
 * the Spearman, its standard error over authors, and score.v2's gain over length with the
 * standard error of that paired difference (how far sampling alone could move them).
 * `--markdown <file>` also writes the table as Markdown (docs/scoring.md quotes it).
 */

// `--personal`: the personal-score evaluation (scripts/eval-personal.ts) instead.
if (process.argv.includes('--personal')) {
  await import('./eval-personal.ts');
  process.exit(0);
}
// `--archetypes`: the hook archetypes' benchmark figures (scripts/eval-archetypes.ts) instead.
if (process.argv.includes('--archetypes')) {
  await import('./eval-archetypes.ts');
  process.exit(0);
}

interface Scored {
  post: DataPost;
  v2: number;
  v1: number;
  length: number;
}

const markdownAt = process.argv.indexOf('--markdown');
const markdownPath = markdownAt === -1 ? null : process.argv[markdownAt + 1];

const model = scoreModel();
const scored: Scored[] = readAllData().map((post) => {
  const input = {
    post: post.text,
    platform: 'platformA' as const,
    ...(post.media ? { media: post.media } : {}),
  };
  return {
    post,
    v2: scoreHeuristically(input).overall,
    v1: overallV1(input),
    length: post.text.trim().length,
  };
});

const PREDICTORS = [
  ['score.v2', (s: Scored) => s.v2],
  ['length', (s: Scored) => s.length],
  ['score.v1', (s: Scored) => s.v1],
] as const;

function measure(set: Scored[]): Record<string, WithinAuthor> {
  const groups = byAuthor(
    set.map((s) => ({ ...s, file: s.post.file, author: s.post.author })),
    5,
  );
  return Object.fromEntries(
    PREDICTORS.map(([name, value]) => [
      name,
      withinAuthor(groups.map((g) => g.map((s) => [value(s), s.post.engagement] as const))),
    ]),
  );
}

const sets: [string, Scored[]][] = [
  ['held-out authors, both files', scored.filter((s) => s.post.heldOut)],
  ...DATA_FILES.map(
    (f) =>
      [`held-out: ${f}`, scored.filter((s) => s.post.heldOut && s.post.file === f)] as [string, Scored[]],
  ),
  ...DATA_FILES.map(
    (f) => [`all authors: ${f}`, scored.filter((s) => s.post.file === f)] as [string, Scored[]],
  ),
];

const pct = (n: number) => `${(100 * n).toFixed(1)}%`;
const rho = (n: number) => n.toFixed(3);
const signed = (n: number) => `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(3)}`;
const lines: string[] = [];
const md: string[] = [
  '| set | authors / posts | Spearman v2 (± se) | length | v1 | v2 − length (± se) | pairwise v2 | length | v1 |',
  '|---|---|---|---|---|---|---|---|---|',
];
lines.push(
  `model ${model.version}; within-author Spearman (mean over authors with 5+ posts) / same-author pairwise accuracy (pairs 2x apart)`,
);
lines.push(
  `${'set'.padEnd(44)}${'authors'.padStart(8)}${'posts'.padStart(7)}   ${'rho v2'.padStart(7)}${'± se'.padStart(7)}${'length'.padStart(8)}${'v1'.padStart(8)}${'v2-len'.padStart(8)}${'± se'.padStart(7)}   ${'pair v2'.padStart(8)}${'length'.padStart(8)}${'v1'.padStart(8)}`,
);
for (const [label, set] of sets) {
  const m = measure(set);
  const v2 = m['score.v2']!;
  const len = m.length!;
  const v1 = m['score.v1']!;
  const overLength = pairedGain(v2, len);
  lines.push(
    `${label.padEnd(44)}${String(v2.authors).padStart(8)}${String(v2.posts).padStart(7)}   ${rho(v2.rho).padStart(7)}${rho(v2.rhoSe).padStart(7)}${rho(len.rho).padStart(8)}${rho(v1.rho).padStart(8)}${rho(overLength.gain).padStart(8)}${rho(overLength.se).padStart(7)}   ${pct(v2.pairwise).padStart(8)}${pct(len.pairwise).padStart(8)}${pct(v1.pairwise).padStart(8)}`,
  );
  md.push(
    `| ${label} | ${v2.authors} / ${v2.posts} | **${rho(v2.rho)}** ± ${rho(v2.rhoSe)} | ${rho(len.rho)} | ${rho(v1.rho)} | ${signed(overLength.gain)} ± ${rho(overLength.se)} | **${pct(v2.pairwise)}** | ${pct(len.pairwise)} | ${pct(v1.pairwise)} |`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
if (markdownPath) writeFileSync(markdownPath, `Model \`${model.version}\`.\n\n${md.join('\n')}\n`);

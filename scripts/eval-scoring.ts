import { createHash } from 'node:crypto';
import { Dimension } from '../src/domain/enums.ts';
import { runRules } from '../src/intelligence/rules.ts';
import { scoreHeuristically } from '../src/intelligence/scorer.ts';
import type { ScoreResult } from '../src/intelligence/types.ts';
import { type PostRow, readPostsCsv } from './lib/posts-csv.ts';

/**
 * npm run eval:scoring -- <csv> [--detail]
 *
 * Scores every post of a CSV with the offline engine (text only: no media, follower or
 * author hints, so nothing but the writing is graded) and prints the Spearman correlation
 * between `overall` and engagement normalised by followers ((reactions + comments) /
 * followers), beside text-length baselines. Authors are split by a hash of their name
 * into train (2/3) and held-out (1/3) groups; the rules were tuned looking at train only,
 * so the held-out column is the honest estimate for unseen posts and authors.
 */

const path = process.argv.slice(2).find((a) => !a.startsWith('--'));
const detail = process.argv.includes('--detail');
if (!path) {
  process.stderr.write('usage: npm run eval:scoring -- <posts.csv> [--detail]\n');
  process.exit(2);
}

function ranks(values: number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let k = i; k <= j; k++) out[order[k]![1]] = (i + j) / 2;
    i = j + 1;
  }
  return out;
}

export function spearman(a: number[], b: number[]): number {
  const ra = ranks(a);
  const rb = ranks(b);
  const n = a.length;
  const ma = ra.reduce((s, x) => s + x, 0) / n;
  const mb = rb.reduce((s, x) => s + x, 0) / n;
  let cov = 0;
  let va = 0;
  let vb = 0;
  for (let i = 0; i < n; i++) {
    cov += (ra[i]! - ma) * (rb[i]! - mb);
    va += (ra[i]! - ma) ** 2;
    vb += (rb[i]! - mb) ** 2;
  }
  return va === 0 || vb === 0 ? 0 : cov / Math.sqrt(va * vb);
}

interface Scored {
  row: PostRow;
  target: number;
  result: ScoreResult;
  holdout: boolean;
}

const isHoldout = (name: string) => createHash('sha256').update(name).digest()[0]! % 3 === 0;

const rows = readPostsCsv(path);
const scored: Scored[] = rows.map((row) => ({
  row,
  target: (row.reactions + row.comments) / row.followers,
  result: scoreHeuristically({ post: row.content, platform: 'platformA' }),
  holdout: isHoldout(row.name),
}));

type Predictor = { label: string; value: (s: Scored) => number };
const predictors: Predictor[] = [
  { label: 'heuristic overall', value: (s) => s.result.overall },
  { label: 'baseline: text length', value: (s) => s.row.content.length },
  { label: 'baseline: shortness (-length)', value: (s) => -s.row.content.length },
  // The best a length-only rule can do by SCORING.md: distance from ~1,000 characters.
  { label: 'baseline: length band (~1,000)', value: (s) => -Math.abs(Math.log(s.row.content.length / 1000)) },
  { label: 'reference: -followers (not text)', value: (s) => -s.row.followers },
];

function corr(set: Scored[], p: Predictor) {
  return spearman(
    set.map(p.value),
    set.map((s) => s.target),
  );
}

/** Mean within-author Spearman and same-author pairwise accuracy (authors with >= 5 posts). */
function withinAuthor(set: Scored[], p: Predictor) {
  const byAuthor = new Map<string, Scored[]>();
  for (const s of set) byAuthor.set(s.row.name, [...(byAuthor.get(s.row.name) ?? []), s]);
  let rhoSum = 0;
  let authors = 0;
  let right = 0;
  let pairs = 0;
  for (const posts of byAuthor.values()) {
    if (posts.length < 5) continue;
    rhoSum += corr(posts, p);
    authors++;
    for (let i = 0; i < posts.length; i++) {
      for (let j = i + 1; j < posts.length; j++) {
        const dt = posts[i]!.target - posts[j]!.target;
        if (dt === 0) continue;
        const dp = p.value(posts[i]!) - p.value(posts[j]!);
        pairs++;
        right += dp === 0 ? 0.5 : Math.sign(dp) === Math.sign(dt) ? 1 : 0;
      }
    }
  }
  return { rho: authors ? rhoSum / authors : 0, accuracy: pairs ? right / pairs : 0, authors };
}

const fmt = (n: number) => (n >= 0 ? ' ' : '') + n.toFixed(3);
const train = scored.filter((s) => !s.holdout);
const holdout = scored.filter((s) => s.holdout);
const out: string[] = [];
out.push(
  `posts: ${scored.length} (train ${train.length}, held-out ${holdout.length}); authors: ${new Set(rows.map((r) => r.name)).size}`,
  'target: (reactions + comments) / followers; Spearman rank correlation',
  '',
  `${'predictor'.padEnd(34)}${'all'.padStart(8)}${'train'.padStart(8)}${'held-out'.padStart(10)}   within-author rho / pairwise acc`,
);
for (const p of predictors) {
  const w = withinAuthor(scored, p);
  out.push(
    `${p.label.padEnd(34)}${fmt(corr(scored, p)).padStart(8)}${fmt(corr(train, p)).padStart(8)}${fmt(corr(holdout, p)).padStart(10)}   ${fmt(w.rho)} / ${(100 * w.accuracy).toFixed(1)}% (${w.authors} authors)`,
  );
}
out.push('', 'per dimension (all posts):');
for (const d of Dimension.options) {
  out.push(`  ${d.padEnd(14)}${fmt(corr(scored, { label: d, value: (s) => s.result.breakdown[d] }))}`);
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : Number.NaN;
};
out.push('', 'hook archetypes: posts, median target relative to the set median (all / train)');
const allMedian = median(scored.map((s) => s.target));
const trainMedian = median(train.map((s) => s.target));
for (const a of [...new Set(scored.map((s) => s.result.hookArchetype))].sort()) {
  const all = scored.filter((s) => s.result.hookArchetype === a).map((s) => s.target);
  const tr = train.filter((s) => s.result.hookArchetype === a).map((s) => s.target);
  out.push(
    `  ${a.padEnd(14)}n=${String(all.length).padStart(4)}  ${(median(all) / allMedian).toFixed(2)}x / ${(median(tr) / trainMedian).toFixed(2)}x`,
  );
}
if (detail) {
  out.push('', 'rules: fired on n posts; median target when fired vs not (train only)');
  const fired = new Map<string, Set<Scored>>();
  for (const s of train) {
    for (const h of runRules({ post: s.row.content }).hits) {
      const key = `${h.rule} (${h.impact})`;
      fired.set(key, (fired.get(key) ?? new Set()).add(s));
    }
  }
  for (const [rule, set] of [...fired].sort()) {
    const on = median([...set].map((s) => s.target));
    const off = median(train.filter((s) => !set.has(s)).map((s) => s.target));
    out.push(`  ${rule.padEnd(44)} n=${String(set.size).padStart(4)}  ${on.toFixed(4)} vs ${off.toFixed(4)}`);
  }
}
process.stdout.write(`${out.join('\n')}\n`);

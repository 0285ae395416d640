import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { configWith } from '../src/config/config.ts';
import { median, pairwiseAccuracy, spearman } from '../src/lib/rank-stats.ts';
import { startService } from '../src/server.ts';
import { byAuthor, type DataPost, readAllData } from './lib/datasets.ts';

/**
 * npm run eval:scoring -- --personal [--markdown <file>]
 *
 * The personal score as a new user meets it, over real HTTP to the app started in-process on
 * loopback (embedded database, offline engine). Per author of ../shared/data/ (one account
 * each): the posts are split in two by a hash of their text; one half is imported through
 * POST /v1/history as a client would, the background refit runs, and the other half is scored
 * through POST /v1/score. Reported per author split (training authors / held-out authors, the
 * same seeded split as the global model's): within-author Spearman of `personal.overall` and of
 * `overall` with log(1 + engagement), same-author pairwise accuracy (pairs 2x apart), how
 * often the personal score and `personal.expected.median` order a pair of posts alike, and how
 * often a post's engagement (as a multiple of the imported half's median) lands in the expected
 * range. Only authors whose imported half reaches 10 posts get a personal model; the others are counted.
 */

const IMPORT_BATCH = 1_000;
const markdownAt = process.argv.indexOf('--markdown');
const markdownPath = markdownAt === -1 ? null : process.argv[markdownAt + 1];

const importHalf = (text: string) =>
  createHash('sha256').update(`personal-eval:${text}`).digest()[0]! % 2 === 0;

const config = configWith({
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'silent',
  DATABASE_URL: 'memory://',
  RATE_LIMIT_REQUESTS_PER_MIN: '10000000',
  RATE_LIMIT_MODEL_PER_MIN: '10000000',
  RATE_LIMIT_SIGNUPS_PER_HOUR: '100000',
  FREE_PLAN_MODEL_QUOTA: '10000000',
});
const service = await startService(config, { autoStartRunner: false });
const base = service.url!;

async function call(method: string, path: string, key: string | null, body: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

interface AuthorResult {
  heldOut: boolean;
  imported: number;
  scored: number;
  personal: boolean;
  global: number[];
  mine: number[];
  target: number[];
  /** `personal.expected` per scored post, and the post's engagement as a multiple of the imported half's median. */
  expected: { low: number; median: number; high: number }[];
  actual: number[];
}

const results: AuthorResult[] = [];
const groups = byAuthor(readAllData(), 10);
let n = 0;
for (const posts of groups) {
  const history = posts.filter((p) => importHalf(p.text));
  const held = posts.filter((p) => !importHalf(p.text));
  if (held.length < 3 || history.length === 0) continue;
  const { apiKey } = await call('POST', '/v1/account', null, { email: `author${++n}@eval.example.com` });
  for (let i = 0; i < history.length; i += IMPORT_BATCH) {
    const items = history.slice(i, i + IMPORT_BATCH).map((p: DataPost) => ({
      text: p.text,
      ...(p.media ? { media: p.media } : {}),
      // The sets give one engagement total (reactions + comments + reposts).
      reactions: p.engagement,
    }));
    await call('POST', '/v1/history', apiKey, { items });
  }
  // The background refit, run now instead of waiting for its timer.
  await service.runner!.runOnce();
  const r: AuthorResult = {
    heldOut: posts[0]!.heldOut,
    imported: history.length,
    scored: held.length,
    personal: false,
    global: [],
    mine: [],
    target: [],
    expected: [],
    actual: [],
  };
  const historyMedian = median(history.map((p) => p.engagement)) ?? 0;
  for (const p of held) {
    const score = await call('POST', '/v1/score', apiKey, {
      post: p.text,
      ...(p.media ? { media: p.media } : {}),
    });
    r.global.push(score.overall);
    r.target.push(p.target);
    if (score.personal) {
      r.personal = true;
      r.mine.push(score.personal.overall);
      r.expected.push(score.personal.expected);
      r.actual.push((1 + p.engagement) / (1 + historyMedian));
    }
  }
  results.push(r);
}
await service.close();

const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : Number.NaN);
function summarize(label: string, rows: AuthorResult[]) {
  const withModel = rows.filter((r) => r.personal);
  const rho = (pick: (r: AuthorResult) => number[]) =>
    mean(withModel.map((r) => spearman(pick(r), r.target)).filter((x): x is number => x !== null));
  let pairs = 0;
  const right = { global: 0, mine: 0 };
  for (const r of withModel) {
    const g = pairwiseAccuracy(r.global, r.target.map(Math.expm1));
    const m = pairwiseAccuracy(r.mine, r.target.map(Math.expm1));
    pairs += g.pairs;
    right.global += (g.accuracy ?? 0) * g.pairs;
    right.mine += (m.accuracy ?? 0) * m.pairs;
  }
  const global = rho((r) => r.global);
  const mine = rho((r) => r.mine);
  // How `expected` reads beside `overall`: the share of same-author pairs whose personal score
  // and expected multiple are ordered alike (ties in either count as alike), and the share of
  // scored posts whose engagement fell inside the expected range (10th to 90th percentile: 80%).
  let ordered = 0;
  let orderPairs = 0;
  let inside = 0;
  let expectedPosts = 0;
  for (const r of withModel) {
    for (let i = 0; i < r.mine.length; i++) {
      const e = r.expected[i]!;
      const a = r.actual[i]!;
      expectedPosts++;
      if (a >= e.low && a <= e.high) inside++;
      for (let j = i + 1; j < r.mine.length; j++) {
        orderPairs++;
        const byScore = Math.sign(r.mine[i]! - r.mine[j]!);
        const byExpected = Math.sign(e.median - r.expected[j]!.median);
        if (byScore * byExpected >= 0) ordered++;
      }
    }
  }
  return {
    label,
    authors: rows.length,
    modelled: withModel.length,
    scored: withModel.reduce((s, r) => s + r.scored, 0),
    global,
    mine,
    gain: mine - global,
    pairGlobal: pairs ? right.global / pairs : Number.NaN,
    pairMine: pairs ? right.mine / pairs : Number.NaN,
    ordered: orderPairs ? ordered / orderPairs : Number.NaN,
    inside: expectedPosts ? inside / expectedPosts : Number.NaN,
  };
}

const rows = [
  summarize(
    'held-out authors',
    results.filter((r) => r.heldOut),
  ),
  summarize(
    'training authors',
    results.filter((r) => !r.heldOut),
  ),
  summarize('all authors', results),
];
const f3 = (x: number) => (Number.isNaN(x) ? 'n/a' : x.toFixed(3));
const pct = (x: number) => (Number.isNaN(x) ? 'n/a' : `${(100 * x).toFixed(1)}%`);
const lines = [
  '| authors | with a personal model | posts scored (the half not imported) | Spearman: overall | Spearman: personal.overall | gain | pairwise: overall | pairwise: personal | score and expected ordered alike | inside the expected range |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.label} (${r.authors}) | ${r.modelled} | ${r.scored} | ${f3(r.global)} | ${f3(r.mine)} | ${r.gain >= 0 ? '+' : ''}${f3(r.gain)} | ${pct(r.pairGlobal)} | ${pct(r.pairMine)} | ${pct(r.ordered)} | ${pct(r.inside)} |`,
  ),
];
console.log(lines.join('\n'));
if (markdownPath) writeFileSync(markdownPath, `${lines.join('\n')}\n`);

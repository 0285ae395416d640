import { randomBytes } from 'node:crypto';
import { configWith } from '../src/config/config.ts';
import type { Ctx } from '../src/context.ts';
import { channels } from '../src/db/schema/index.ts';
import { SCOPES } from '../src/domain/scopes.ts';
import { cancelPost } from '../src/features/posts/lifecycle.service.ts';
import { createPost } from '../src/features/posts/posts.service.ts';
import { setQueue } from '../src/features/queues/queues.service.ts';
import { newId } from '../src/lib/ids.ts';
import { startService } from '../src/server.ts';
import { fmt, report } from './lib.ts';

/**
 * bench/queue: queue assignment time for 10,000 queued posts. One channel with 14 weekly slots
 * (Europe/Paris, so the walk crosses daylight-saving changes for about 14 years) takes 10,000
 * `queue: true` creates one after another through the service verb; each must find the next
 * free slot under the queue lock. Baseline in the same run: 10,000 creates of the same post
 * with an explicit runAt (same checks and insert, no slot search). Then the worst case: the
 * first post is canceled, which drops the filled-until hint, so the next assignment takes
 * the freed slot and the one after walks all 10,000 taken slots again.
 * Uses DATABASE_URL when set (PostgreSQL), otherwise in-memory PGlite.
 */
const POSTS = Number(process.env.BENCH_QUEUE_POSTS ?? 10_000);

const service = await startService(
  configWith({
    PORT: '0',
    LOG_LEVEL: 'warn',
    DATABASE_URL: process.env.DATABASE_URL ?? 'memory://',
    KIT_VAULT_KEY: randomBytes(32).toString('base64'),
  }),
  { autoStartRunner: false, listen: false },
);
const { deps } = service;
const backend = deps.database.kind;

async function account(): Promise<{ ctx: Ctx; channelId: string }> {
  const res = await service.app!.inject({
    method: 'POST',
    url: '/v1/account',
    payload: { email: `bench-queue-${randomBytes(4).toString('hex')}@example.com` },
  });
  const accountId = (res.json() as { account: { id: string } }).account.id;
  const channelId = newId('channel');
  const now = Date.now();
  await deps.db.insert(channels).values({
    id: channelId,
    accountId,
    platform: 'platformA',
    platformUserId: `bench-${channelId}`,
    status: 'connected',
    createdAt: now,
    updatedAt: now,
  });
  const ctx: Ctx = {
    deps,
    requestId: 'bench',
    log: deps.log,
    caller: { accountId, keyId: null, plan: 'free', memberId: 'bench', role: 'owner', scopes: SCOPES },
  };
  return { ctx, channelId };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function timed(n: number, one: (i: number) => Promise<unknown>) {
  const each: number[] = [];
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await one(i);
    each.push(performance.now() - t);
  }
  const total = performance.now() - started;
  each.sort((a, b) => a - b);
  return { totalMs: total, meanMs: total / n, p50Ms: percentile(each, 0.5), p99Ms: percentile(each, 0.99) };
}

const text = 'A post for the queue benchmark: long enough to be ordinary, short enough for any platform.';

const base = await account();
const runAtStart = Date.now() + 86_400_000;
const baseline = await timed(POSTS, (i) =>
  createPost({
    ctx: base.ctx,
    input: { text, channelId: base.channelId, runAt: runAtStart + i * 3_600_000 },
  }),
);

const q = await account();
await setQueue({
  ctx: q.ctx,
  input: {
    channelId: q.channelId,
    queue: {
      timezone: 'Europe/Paris',
      slots: [1, 2, 3, 4, 5, 6, 7].flatMap((day) => [
        { day, time: '08:30' },
        { day, time: '17:00' },
      ]),
    },
  },
});
let firstId = '';
const queued = await timed(POSTS, async (i) => {
  const { post } = await createPost({ ctx: q.ctx, input: { text, channelId: q.channelId, queue: true } });
  if (i === 0) firstId = post.id;
});

// Worst case: a freed slot drops the hint; the create after the one that refills it walks everything.
await cancelPost({ ctx: q.ctx, input: { id: firstId } });
const refill = await timed(1, () =>
  createPost({ ctx: q.ctx, input: { text, channelId: q.channelId, queue: true } }),
);
const fullWalk = await timed(1, () =>
  createPost({ ctx: q.ctx, input: { text, channelId: q.channelId, queue: true } }),
);

console.log(`queue assignment, ${fmt(POSTS)} posts, ${backend}`);
console.log(
  `  baseline (runAt given): ${fmt(baseline.totalMs)} ms in all, mean ${fmt(baseline.meanMs, 2)} ms, p50 ${fmt(baseline.p50Ms, 2)} ms, p99 ${fmt(baseline.p99Ms, 2)} ms`,
);
console.log(
  `  queue: true:            ${fmt(queued.totalMs)} ms in all, mean ${fmt(queued.meanMs, 2)} ms, p50 ${fmt(queued.p50Ms, 2)} ms, p99 ${fmt(queued.p99Ms, 2)} ms`,
);
console.log(`  ratio queue / baseline (mean): ${fmt(queued.meanMs / baseline.meanMs, 2)}`);
console.log(
  `  after a cancel: refilling the freed slot ${fmt(refill.totalMs, 1)} ms; the next create, walking ${fmt(POSTS)} taken slots, ${fmt(fullWalk.totalMs, 1)} ms`,
);
report('queue', {
  backend,
  posts: POSTS,
  baselineMeanMs: Number(baseline.meanMs.toFixed(3)),
  queueMeanMs: Number(queued.meanMs.toFixed(3)),
  queueP99Ms: Number(queued.p99Ms.toFixed(3)),
  ratio: Number((queued.meanMs / baseline.meanMs).toFixed(3)),
  fullWalkMs: Number(fullWalk.totalMs.toFixed(1)),
});
await service.close();

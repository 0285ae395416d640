import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema/index.ts';
import { LISTING_BUDGET_MS } from '../../src/platforms/recent-posts.ts';
import { killAll, type ServiceProcess, spawnService } from '../helpers/processes.ts';
import { B_REDIRECT } from '../platforms/platformB-world.ts';
import {
  expectChainOnPlatform,
  type MemberA,
  type MemberB,
  startThreadWorld,
  type ThreadWorld,
} from '../posts/threads-world.ts';
import { claimerPid, SERVERS, until } from './process-world.ts';

/**
 * Crash recovery after a busy minute (issue 37 item 1), with real processes on PostgreSQL and
 * Redis: a burst on both platforms (platformB posts with two thread parts and a first comment,
 * platformA posts with a first comment), a second burst 25 s later, and during the second a
 * worker and the API (in the middle of publish-now calls) are SIGKILLed. Before, the look-ups
 * after such a crash gave up on the channel's many recent posts and failed posts with parts
 * live, lost first comments and failed posts that never left. Now: no post fails, every part
 * of every post is on its platform exactly once, and the post records each of them.
 * The platforms refuse duplicates, as the live ones do. Every wait is for a condition, with
 * generous bounds (a loaded machine slows everything down, it does not change the outcome).
 */
const LEASE = 8_000;
const SWEEP_INTERVAL = 1_000;
const PER_BURST = 80;
const PUBLISH_NOW = 12;

let w: ThreadWorld;

beforeAll(async () => {
  if (!SERVERS) return;
  w = await startThreadWorld({
    sandbox: {
      platformA: { rejectDuplicates: true },
      platformB: { rejectDuplicates: true, createLimit: 100_000 },
    },
  });
});
afterEach(async () => {
  await killAll();
});
afterAll(async () => {
  await w?.close();
});

const db = () => w.t.service.deps.db;

function childEnv() {
  return {
    DATABASE_URL: w.t.config.DATABASE_URL,
    REDIS_URL: process.env.REDIS_URL,
    KIT_VAULT_KEY: w.vaultKey,
    ...w.sandbox.platformA.env(w.redirectUri),
    ...w.sandbox.platformB.env(B_REDIRECT),
    PLATFORMA_BACKOFF_SCALE: '0.001',
    PLATFORMB_BACKOFF_SCALE: '0.001',
    DATA_DIR: w.dataDir,
    SWEEP_INTERVAL_MS: String(SWEEP_INTERVAL),
    PUBLISH_LEASE_MS: String(LEASE),
    PUBLISH_CONCURRENCY: '24',
    // A look-up that cannot answer yet is asked again after 1.5 s, 3 s, 6 s... (not 15 s, 30 s).
    LOOKUP_BACKOFF_SCALE: '0.1',
  };
}

interface Burst {
  a: string[];
  b: string[];
}

/** One burst: `PER_BURST` posts a platform, due in `dueInMs`, written in one request each. */
async function burst(a: MemberA, b: MemberB, tag: string, runAt: number): Promise<Burst> {
  const itemsB = Array.from({ length: PER_BURST }, (_, i) => ({
    text: `${tag} B ${i}: the post`,
    thread: [`${tag} B ${i}: part 2`, `${tag} B ${i}: part 3`],
    firstComment: `${tag} B ${i}: the first comment`,
    runAt,
    channelId: b.channelId,
  }));
  const itemsA = Array.from({ length: PER_BURST }, (_, i) => ({
    text: `${tag} A ${i}: the post`,
    firstComment: `${tag} A ${i}: the first comment`,
    runAt,
    channelId: a.channelId,
  }));
  const ids: Burst = { a: [], b: [] };
  for (const [m, items, into] of [
    [a, itemsA, ids.a],
    [b, itemsB, ids.b],
  ] as const) {
    const res = await w.t.request('POST', '/v1/posts/bulk-schedule', { key: m.apiKey, body: { items } });
    expect(res.status, res.text).toBe(201);
    into.push(...res.body.posts.map((p: { id: string }) => p.id));
  }
  return ids;
}

async function draftsFor(m: { apiKey: string; channelId: string }, tag: string, withThread: boolean) {
  const ids: string[] = [];
  for (let i = 0; i < PUBLISH_NOW; i++) {
    const res = await w.t.request('POST', '/v1/posts', {
      key: m.apiKey,
      body: {
        text: `${tag} ${i}: the post`,
        ...(withThread ? { thread: [`${tag} ${i}: part 2`] } : {}),
        firstComment: `${tag} ${i}: the first comment`,
        channelId: m.channelId,
      },
    });
    expect(res.status, res.text).toBe(201);
    ids.push(res.body.post.id);
  }
  return ids;
}

/** Posts `proc` holds whose create is in flight (sent, not answered). */
async function inDoubtHeldBy(ids: string[], proc: ServiceProcess) {
  const rows = await db()
    .select({ id: posts.id, claimedBy: posts.claimedBy })
    .from(posts)
    .where(and(inArray(posts.id, ids), eq(posts.status, 'publishing'), isNotNull(posts.createSentAt)));
  return rows.filter((r) => claimerPid(r.claimedBy) === proc.pid).map((r) => r.id);
}

type PostRecord = typeof posts.$inferSelect;

/**
 * What a post has got to: its state, every part recorded, who holds it, what it waits for.
 * Not `claimedAt`: a heartbeat renewing a claim is no progress.
 */
const stepOf = (r: PostRecord) =>
  JSON.stringify([
    r.status,
    r.platformPostId,
    r.threadPostIds,
    r.firstCommentId,
    r.createSentAt,
    r.claimedBy,
    r.retryAt,
    r.error,
  ]);

/**
 * The longest the product lets a post in recovery go without a step, as configured here
 * (docs/publishing.md, "How long recovery takes"): a dead holder's claim lapses within a lease
 * and is taken over by the next run (a sweep interval at most); the take-over's look-up lists
 * the channel within LISTING_BUDGET_MS; a look-up put off waits until its `retryAt`.
 */
function stepBoundMs(rows: PostRecord[], now: number) {
  const putOff = Math.max(
    0,
    ...rows.map((r) => (r.status === 'publishing' && r.retryAt ? r.retryAt - now : 0)),
  );
  return LEASE + SWEEP_INTERVAL + LISTING_BUDGET_MS + putOff;
}

/**
 * Waits until every post is published or failed, for as long as recovery keeps making steps.
 * A loaded machine makes every step slower, not different (one run at load 25 had not settled
 * after 300 s, most likely for drafts no call had claimed: see below), so the bound is not a
 * guessed total: the wait fails when no post has moved for longer than the product's own bound
 * for one step (stepBoundMs), naming each unsettled post's status, reason and retry time.
 */
async function settled(ids: string[]) {
  let steps = new Map<string, string>();
  let movedAt = Date.now();
  for (;;) {
    const rows = await db().select().from(posts).where(inArray(posts.id, ids));
    const waiting = rows.filter((r) => r.status !== 'published' && r.status !== 'failed');
    if (waiting.length === 0) return rows;
    const now = Date.now();
    const next = new Map(rows.map((r) => [r.id, stepOf(r)]));
    if (rows.some((r) => steps.get(r.id) !== next.get(r.id))) movedAt = now;
    steps = next;
    const bound = stepBoundMs(waiting, now);
    if (now - movedAt > bound) {
      const what = waiting.map((r) => ({
        id: r.id,
        status: r.status,
        error: r.error,
        retryAt: r.retryAt,
        claimedBy: r.claimedBy,
      }));
      throw new Error(
        `no post moved for ${now - movedAt} ms (bound ${bound} ms); ${waiting.length} unsettled: ${JSON.stringify(what.slice(0, 8))}`,
      );
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe.runIf(SERVERS)('recovery after a busy minute, on both platforms', () => {
  it('two bursts 25 s apart, a worker and the API SIGKILLed in the second: 0 failed, 0 lost parts, nothing doubled', async () => {
    const a = await w.memberA();
    const b = await w.memberB();
    const [first, second] = await Promise.all([
      spawnService('worker', childEnv()),
      spawnService('worker', childEnv()),
    ]);
    const api = await spawnService('api', childEnv());
    const firstAt = Date.now() + 3_000;
    const one = await burst(a, b, 'First burst', firstAt);
    // The second burst falls due 25 s after the first; its creates are slow, so many are in
    // flight when the processes die.
    const two = await burst(a, b, 'Second burst', firstAt + 25_000);
    const nowA = await draftsFor(a, 'Publish now A', false);
    const nowB = await draftsFor(b, 'Publish now B', true);
    const slowFrom = firstAt + 25_000 - 1_000;
    await until('the second burst’s time', async () => (Date.now() >= slowFrom ? true : null), 60_000, 100);
    for (const route of ['createPost', 'createComment'] as const)
      w.sandbox.platformA.faults.latency(1_500, route);
    w.sandbox.platformB.faults.latency(1_500, 'createTweet');
    const secondIds = [...two.a, ...two.b];
    const nowIds = [...nowA, ...nowB];
    // The first worker has creates of the second burst in flight, on platformB too (under the
    // first burst's posts); then the API gets its publish-now calls, and both are killed while
    // each has creates in flight. Conditions, not times: a loaded machine only makes it later.
    await until(
      'the first worker to have creates of the second burst in flight',
      async () => {
        const worker = await inDoubtHeldBy(secondIds, first!);
        return worker.length >= 4 && worker.some((id) => two.b.includes(id)) ? true : null;
      },
      180_000,
      25,
    );
    const calls = nowIds.map((id) =>
      api
        .request('POST', `/v1/posts/${id}/publish`, { key: (nowA.includes(id) ? a : b).apiKey })
        .catch(() => null),
    );
    await until(
      'the API and the first worker to have creates in flight',
      async () => {
        const viaApi = await inDoubtHeldBy(nowIds, api);
        const worker = await inDoubtHeldBy(secondIds, first!);
        return viaApi.length >= 2 && worker.length >= 1 ? true : null;
      },
      180_000,
      25,
    );
    await Promise.all([first!.kill('SIGKILL'), api.kill('SIGKILL')]);
    await Promise.all(calls);
    const doubted = [...(await inDoubtHeldBy(secondIds, first!)), ...(await inDoubtHeldBy(nowIds, api))];
    expect(doubted.length).toBeGreaterThan(0);
    w.sandbox.platformA.faults.clear();
    w.sandbox.platformB.faults.clear();
    // A call the API died before claiming for (still reading it, checking the post) published
    // nothing: its post is still a draft and its client saw a cut connection. Recovery has
    // nothing to settle there; the client checks the post and publishes again (operations.md),
    // as this one does. Under heavy load some can be; left alone they would never settle.
    const unclaimed = await db()
      .select({ id: posts.id })
      .from(posts)
      .where(and(inArray(posts.id, nowIds), eq(posts.status, 'draft')));
    const retried = unclaimed.map(async ({ id }) => {
      const res = await w.t.request('POST', `/v1/posts/${id}/publish`, {
        key: (nowA.includes(id) ? a : b).apiKey,
      });
      expect(res.status, res.text).toBe(200);
    });

    const all = [...one.a, ...one.b, ...two.a, ...two.b, ...nowA, ...nowB];
    await Promise.all(retried);
    const rows = await settled(all);
    expect(second!.child.exitCode, second!.output()).toBeNull();
    // 0 failed.
    const failed = rows.filter((r) => r.status !== 'published');
    expect(
      failed.map((r) => `${r.text}: ${r.error}`),
      'failed posts',
    ).toEqual([]);
    // Every part of every post exactly once on its platform, with the ids the post records.
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of [...one.b, ...two.b, ...nowB]) {
      const res = await w.t.request('GET', `/v1/posts/${id}`, { key: b.apiKey });
      expectChainOnPlatform(b, res.body.post, byId.get(id)!.firstCommentId);
    }
    const stateA = w.sandbox.platformA.state;
    const postsA = stateA.listPosts({ author: a.author });
    const commentsA = [...stateA.comments.values()];
    for (const id of [...one.a, ...two.a, ...nowA]) {
      const row = byId.get(id)!;
      const there = postsA.filter((p) => p.commentary === row.text);
      expect(there, row.text).toHaveLength(1);
      expect(row.platformPostId).toBe(there[0]!.id);
      const comments = commentsA.filter((c) => c.text === row.firstComment);
      expect(comments, row.firstComment!).toHaveLength(1);
      expect(comments[0]!.postUrn).toBe(row.platformPostId);
      expect(row.firstCommentId).toBe(comments[0]!.id);
    }
    // vitest's own limit only stops a run that hangs; settled() is what judges recovery.
  }, 900_000);
});

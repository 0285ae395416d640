import { randomBytes } from 'node:crypto';
import { and, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema/index.ts';
import type { ServiceProcess } from '../helpers/processes.ts';
import { eventsOf } from '../posts/world.ts';
import { claimerPid, type ProcessWorld, SERVERS, startProcessWorld, until } from './process-world.ts';

/**
 * Two API processes and two worker processes (real `src/main.ts` children) on one PostgreSQL
 * database and one Redis namespace, against the sandbox platform, under concurrent load.
 * PGlite is embedded in one process, so this runs on the server backends only.
 */
const LIMIT = 100;

describe.runIf(SERVERS)('two API and two worker processes sharing PostgreSQL and Redis', () => {
  let w: ProcessWorld;
  let apis: ServiceProcess[];
  let workers: ServiceProcess[];

  beforeAll(async () => {
    w = await startProcessWorld({ childEnv: { RATE_LIMIT_REQUESTS_PER_MIN: String(LIMIT) } });
    const started = await Promise.all([
      w.spawn('api'),
      w.spawn('api'),
      w.spawn('worker', { PUBLISH_LEASE_MS: '5000' }),
      w.spawn('worker', { PUBLISH_LEASE_MS: '5000' }),
    ]);
    apis = started.slice(0, 2);
    workers = started.slice(2);
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('shares one rate-limit budget: exactly N successes across both API processes', async () => {
    const { apiKey } = await w.t.signup();
    const total = LIMIT + 60;
    const answers = await Promise.all(
      Array.from({ length: total }, (_, i) => apis[i % 2]!.request('GET', '/v1/account', { key: apiKey })),
    );
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok).toHaveLength(LIMIT);
    expect(limited).toHaveLength(total - LIMIT);
    // Every success spent a distinct unit of the one shared window.
    const remaining = ok.map((a) => Number(a.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
    for (const a of limited) {
      expect(a.body.error.code).toBe('rate_limited');
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(a.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    // Each process answered half the burst, so each spent some of the shared budget.
    for (const api of apis) {
      const mine = answers.filter((_, i) => apis[i % 2] === api);
      expect(mine.some((a) => a.status === 200)).toBe(true);
    }
    // Spent everywhere: both processes refuse the key now; another key is untouched.
    for (const api of apis)
      expect((await api.request('GET', '/v1/account', { key: apiKey })).status).toBe(429);
    const other = await w.t.signup();
    const fresh = await apis[1]!.request('GET', '/v1/account', { key: other.apiKey });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1));
  }, 60_000);

  it('runs an Idempotency-Key once across both API processes and replays it from either', async () => {
    const { apiKey, accountId } = await w.t.signup();
    const keys = Array.from({ length: 5 }, (_, i) => `order-${i}-${randomBytes(4).toString('hex')}`);
    const send = (api: ServiceProcess, key: string, text = `Idempotent ${key}`) =>
      api.request('POST', '/v1/posts', { key: apiKey, body: { text }, headers: { 'idempotency-key': key } });
    // Six copies of each key at once, three through each process.
    const burst = await Promise.all(
      keys.flatMap((key) =>
        Array.from({ length: 6 }, (_, i) => send(apis[i % 2]!, key).then((a) => ({ key, a }))),
      ),
    );
    for (const key of keys) {
      const answers = burst.filter((b) => b.key === key).map((b) => b.a);
      const originals = answers.filter(
        (a) => a.status === 201 && a.headers.get('idempotent-replay') === null,
      );
      expect(originals, `one original run for ${key}`).toHaveLength(1);
      const original = originals[0]!;
      for (const a of answers) {
        if (a === original) continue;
        if (a.status === 201) {
          expect(a.headers.get('idempotent-replay')).toBe('true');
          expect(a.text).toBe(original.text);
        } else {
          expect(a.status, a.text).toBe(409);
          expect(a.body.error.code).toBe('idempotency_in_progress');
          expect(a.headers.get('retry-after')).toBe('1');
        }
      }
      // Once settled, either process replays the same body.
      for (const api of apis) {
        const replay = await send(api, key);
        expect(replay.status).toBe(201);
        expect(replay.headers.get('idempotent-replay')).toBe('true');
        expect(replay.text).toBe(original.text);
        // The key is bound to its body in the shared store, whichever process sees the reuse.
        const reused = await send(api, key, 'Another body');
        expect(reused.status).toBe(422);
        expect(reused.body.error.code).toBe('idempotency_key_reused');
      }
      const rows = await w.t.service.deps.db
        .select({ id: posts.id })
        .from(posts)
        .where(and(eq(posts.accountId, accountId), eq(posts.text, `Idempotent ${key}`)));
      expect(rows).toEqual([{ id: original.body.post.id }]);
    }
  }, 60_000);

  it('publishes every post exactly once: scheduled through both APIs, swept by both workers, raced by publish-now', async () => {
    const m = await w.member();
    // Spread the load over several keys of the account so the per-key budget is not the limit here.
    const extra = await Promise.all(
      [1, 2, 3].map(
        async () => (await w.t.request('POST', '/v1/keys', { key: m.apiKey })).body.apiKey as string,
      ),
    );
    const keys = [m.apiKey, ...extra];
    let turn = 0;
    const call = (method: string, path: string, body?: unknown) => {
      const i = turn++;
      return apis[i % 2]!.request(method, path, { key: keys[i % keys.length], body });
    };
    const tag = randomBytes(3).toString('hex');
    // A create that takes a moment keeps both workers busy at once, so both take a share.
    w.sandbox.platformA.faults.latency(200, 'createPost');
    const creates = w.sandbox.platformA.state.calls('createPost');
    const runAt = Date.now() + 10_000;

    const scheduledIds: string[] = [];
    const bulk = await Promise.all(
      [0, 1, 2, 3].map((b) =>
        call('POST', '/v1/posts/bulk-schedule', {
          items: Array.from({ length: 20 }, (_, i) => ({
            text: `EO ${tag} bulk ${b}-${i}`,
            channelId: m.channelId,
            runAt,
          })),
        }),
      ),
    );
    for (const res of bulk) {
      expect(res.status, res.text).toBe(201);
      scheduledIds.push(...res.body.posts.map((p: { id: string }) => p.id));
    }
    const singles = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('POST', '/v1/posts', { text: `EO ${tag} single ${i}`, channelId: m.channelId, runAt }),
      ),
    );
    for (const res of singles) {
      expect(res.status, res.text).toBe(201);
      scheduledIds.push(res.body.post.id);
    }
    const drafts = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('POST', '/v1/posts', { text: `EO ${tag} draft ${i}`, channelId: m.channelId }),
      ),
    );
    const draftIds = drafts.map((res) => {
      expect(res.status, res.text).toBe(201);
      return res.body.post.id as string;
    });
    expect(Date.now()).toBeLessThan(runAt);

    // At the due time: the workers sweep, while publish-now races them on 20 of the scheduled
    // posts (once through each API) and on every draft (twice through each API).
    await until('the posts to fall due', () => Date.now() >= runAt, 20_000, 20);
    const raced = scheduledIds.slice(0, 20);
    const race = await Promise.all([
      ...raced.flatMap((id) =>
        [0, 1].map(() => call('POST', `/v1/posts/${id}/publish`).then((a) => ({ id, a }))),
      ),
      ...draftIds.flatMap((id) =>
        [0, 1, 2, 3].map(() => call('POST', `/v1/posts/${id}/publish`).then((a) => ({ id, a }))),
      ),
    ]);
    const okBy = new Map<string, number>();
    for (const { id, a } of race) {
      if (a.status === 200) {
        expect(a.body.post).toMatchObject({ id, status: 'published' });
        okBy.set(id, (okBy.get(id) ?? 0) + 1);
      } else {
        expect(a.status, a.text).toBe(409);
        expect(a.body.error.code).toBe('not_claimable');
        expect(a.body.post.id).toBe(id);
      }
    }
    for (const id of draftIds) expect(okBy.get(id), `one winning publish-now for ${id}`).toBe(1);
    for (const id of raced) expect(okBy.get(id) ?? 0).toBeLessThanOrEqual(1);

    const all = [...scheduledIds, ...draftIds];
    expect(all).toHaveLength(120);
    const db = w.t.service.deps.db;
    const rows = await until(
      'every post to be published',
      async () => {
        const r = await db.select().from(posts).where(inArray(posts.id, all));
        return r.every((p) => p.status === 'published') ? r : null;
      },
      90_000,
      250,
    );
    w.sandbox.platformA.faults.clear();

    // Exactly once on the platform: one create request per post, one post per text.
    expect(w.sandbox.platformA.state.calls('createPost') - creates).toBe(120);
    const onPlatform = m.platformPosts().filter((p) => p.text.startsWith(`EO ${tag} `));
    expect(onPlatform).toHaveLength(120);
    const byText = new Map(onPlatform.map((p) => [p.text, p.id]));
    expect(byText.size).toBe(120);
    for (const row of rows) expect(row.platformPostId).toBe(byText.get(row.text));
    // One post.published event per post.
    const published = (await eventsOf(w.t, m.accountId)).filter((e) => e.type === 'post.published');
    expect(published.map((e) => e.post!.id).sort()).toEqual([...all].sort());

    // Who published what: drafts by the API process that won, scheduled posts by both workers.
    const workerPids = new Set(workers.map((p) => p.pid));
    const apiPids = new Set(apis.map((p) => p.pid));
    for (const row of rows) {
      const pid = claimerPid(row.claimedBy);
      if (draftIds.includes(row.id)) expect(apiPids.has(pid!)).toBe(true);
      else expect(workerPids.has(pid!) || (raced.includes(row.id) && apiPids.has(pid!))).toBe(true);
      expect(row.publishAttempts).toBe(1);
    }
    const sweptBy = new Set(rows.map((r) => claimerPid(r.claimedBy)).filter((pid) => workerPids.has(pid!)));
    expect(sweptBy.size).toBe(2);
    // Nothing else of this run is left in a transitional state.
    const stuck = await db
      .select({ id: posts.id })
      .from(posts)
      .where(
        and(
          eq(posts.accountId, m.accountId),
          like(posts.text, `EO ${tag} %`),
          eq(posts.status, 'publishing'),
        ),
      );
    expect(stuck).toEqual([]);
    for (const p of [...apis, ...workers]) expect(p.output()).not.toMatch(/"level":(50|60)/);
  }, 150_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend, startTestApp } from '../helpers/app.ts';
import { until } from '../helpers/until.ts';
import { createPost, type Member, type PostWorld, postRow, startPostWorld, uploadImage } from './world.ts';

let w: PostWorld;
let alice: Member;
let bob: Member;

beforeAll(async () => {
  w = await startPostWorld();
  alice = await w.member();
  bob = await w.member();
});
afterAll(async () => {
  await w?.close();
});

const bulk = (m: Member, items: unknown[], headers: Record<string, string> = {}) =>
  w.t.request('POST', '/v1/posts/bulk-schedule', { key: m.apiKey, body: { items }, headers });

describe('bulk-schedule', () => {
  it('schedules every item, in order', async () => {
    const runAt = w.clock.now() + 3_600_000;
    const mediaId = await uploadImage(w.t, alice);
    const res = await bulk(alice, [
      { text: 'Bulk one', runAt, channelId: alice.channelId },
      { text: 'Bulk two', runAt: runAt + 60_000, channelId: alice.channelId, mediaIds: [mediaId] },
    ]);
    expect(res.status, res.text).toBe(201);
    expect(
      res.body.posts.map((p: { text: string; status: string; scheduledFor: number }) => [
        p.text,
        p.status,
        p.scheduledFor,
      ]),
    ).toEqual([
      ['Bulk one', 'scheduled', runAt],
      ['Bulk two', 'scheduled', runAt + 60_000],
    ]);
    expect(res.body.pagination).toEqual({ limit: 2, offset: 0, hasMore: false });
  });

  it('fails the whole batch on any bad item, naming each problem by item, creating nothing', async () => {
    const before = (await w.t.request('GET', '/v1/posts?limit=100', { key: alice.apiKey })).body.posts.length;
    const theirMedia = await uploadImage(w.t, bob);
    const now = w.clock.now();
    const res = await bulk(alice, [
      { text: 'fine', runAt: now + 60_000, channelId: alice.channelId },
      { text: 'past', runAt: now - 1, channelId: alice.channelId },
      { text: 'theirs', runAt: now + 60_000, channelId: bob.channelId },
      { text: 'their media', runAt: now + 60_000, channelId: alice.channelId, mediaIds: [theirMedia] },
      { text: 'x'.repeat(3001), runAt: now + 60_000, channelId: alice.channelId },
      { text: 'no channel', runAt: now + 60_000 },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(
      [
        'items[1].runAt',
        'items[2].channelId',
        'items[3].mediaIds[0]',
        'items[4].text',
        'items[5].channelId',
      ].sort(),
    );
    const after = (await w.t.request('GET', '/v1/posts?limit=100', { key: alice.apiKey })).body.posts.length;
    expect(after).toBe(before);
  });

  it('reports shape errors with item paths too', async () => {
    const res = await bulk(alice, [
      { text: 'ok', runAt: w.clock.now() + 1000, channelId: alice.channelId },
      { text: 'no time' },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain('items[1].runAt');
    expect((await bulk(alice, [])).status).toBe(400);
  });

  it('honours Idempotency-Key', async () => {
    const items = [
      { text: `Idem bulk ${Date.now()}`, runAt: w.clock.now() + 3_600_000, channelId: alice.channelId },
    ];
    const headers = { 'idempotency-key': `bulk-${Date.now()}` };
    const first = await bulk(alice, items, headers);
    const again = await bulk(alice, items, headers);
    expect(first.status).toBe(201);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body).toEqual(first.body);
    const list = await w.t.request('GET', '/v1/posts?limit=100&status=scheduled', { key: alice.apiKey });
    expect(list.body.posts.filter((p: { text: string }) => p.text === items[0]!.text)).toHaveLength(1);
  });
});

describe('calendar', () => {
  it('shows scheduled and published posts chronologically within the window', async () => {
    const carol = await w.member();
    const base = w.clock.now() + 86_400_000;
    const late = await createPost(w.t, carol, {
      text: 'Late slot',
      channelId: carol.channelId,
      runAt: base + 7_200_000,
    });
    const early = await createPost(w.t, carol, {
      text: 'Early slot',
      channelId: carol.channelId,
      runAt: base + 3_600_000,
    });
    await createPost(w.t, carol, { text: 'Just a draft', channelId: carol.channelId });
    const canceled = await createPost(w.t, carol, {
      text: 'Canceled',
      channelId: carol.channelId,
      runAt: base,
    });
    await w.t.request('POST', `/v1/posts/${canceled.id}/cancel`, { key: carol.apiKey });
    const published = await createPost(w.t, carol, {
      text: `Published ${'long '.repeat(40)}`,
      channelId: carol.channelId,
    });
    const pub = await w.t.request('POST', `/v1/posts/${published.id}/publish`, { key: carol.apiKey });
    const publishedAt = pub.body.post.publishedAt;

    const all = await w.t.request('GET', '/v1/calendar', { key: carol.apiKey });
    expect(all.status).toBe(200);
    expect(all.body.calendar).toEqual([
      {
        postId: published.id,
        status: 'published',
        when: publishedAt,
        channelId: carol.channelId,
        platform: 'platformA',
        preview: expect.stringMatching(/^Published long .*…$/),
      },
      {
        postId: early.id,
        status: 'scheduled',
        when: base + 3_600_000,
        channelId: carol.channelId,
        platform: 'platformA',
        preview: 'Early slot',
      },
      {
        postId: late.id,
        status: 'scheduled',
        when: base + 7_200_000,
        channelId: carol.channelId,
        platform: 'platformA',
        preview: 'Late slot',
      },
    ]);
    expect(all.body.calendar[0].preview.length).toBeLessThanOrEqual(80);

    const window = await w.t.request('GET', `/v1/calendar?from=${base + 3_600_000}&to=${base + 7_200_000}`, {
      key: carol.apiKey,
    });
    expect(window.body.calendar.map((e: { postId: string }) => e.postId)).toEqual([early.id]);
    const bad = await w.t.request('GET', `/v1/calendar?from=${base}&to=${base - 1}`, { key: carol.apiKey });
    expect(bad.status).toBe(400);
    expect((await w.t.request('GET', '/v1/calendar?from=soon', { key: carol.apiKey })).status).toBe(400);
    // Another account sees none of it.
    const other = await w.t.request('GET', '/v1/calendar', { key: bob.apiKey });
    expect(
      other.body.calendar.some((e: { postId: string }) =>
        [early.id, late.id, published.id].includes(e.postId),
      ),
    ).toBe(false);
  });
});

describe('waking early for due posts', () => {
  it('publishes a post at its time, long before the next periodic sweep', async () => {
    // A sweep interval of 10 minutes: only the early wake-up can publish this post in time.
    const world = await startPostWorld({ env: { SWEEP_INTERVAL_MS: '600000' } });
    try {
      const m = await world.member();
      const { runner } = world.t.service;
      // The test app starts its runner paused; this one runs like production.
      await runner!.stop();
      const { startRunner } = await import('../../src/jobs/runner.ts');
      const { sweeps } = await import('../../src/compose/sweeps.ts');
      const live = startRunner(world.t.service.deps, sweeps, { wakeHub: world.t.service.wakeHub });
      try {
        await new Promise((r) => setTimeout(r, 200)); // the runner's first pass, with nothing due
        const runAt = world.clock.now() + 1_500;
        const p = await createPost(world.t, m, { text: 'On time', channelId: m.channelId, runAt });
        const row = await until('the post to publish', async () => {
          const r = await postRow(world.t, p.id);
          return r?.status === 'published' ? r : null;
        });
        expect(row.publishedAt).toBeGreaterThanOrEqual(runAt);
        expect(m.platformPosts()).toHaveLength(1);
      } finally {
        await live.stop();
      }
    } finally {
      await world.close();
    }
  });

  it.skipIf(backend !== 'postgres')(
    'a worker process notices posts scheduled by a separate API process',
    async () => {
      const world = await startPostWorld({ env: { SWEEP_INTERVAL_MS: '600000', KIT_ROLE: 'api' } });
      // A second service on the same database, worker role, its runner live.
      const worker = await startTestApp(
        {
          ...world.sandbox.platformA.env(world.redirectUri),
          KIT_VAULT_KEY: world.vaultKey,
          KIT_ROLE: 'worker',
          SWEEP_INTERVAL_MS: '600000',
          DATABASE_URL: world.t.config.DATABASE_URL,
          PLATFORMA_BACKOFF_SCALE: '0.001',
        },
        { autoStartRunner: true, clock: world.clock },
      );
      try {
        const m = await world.member();
        await new Promise((r) => setTimeout(r, 200));
        const runAt = world.clock.now() + 1_500;
        const p = await createPost(world.t, m, { text: 'Seen by the worker', channelId: m.channelId, runAt });
        const row = await until('the post to publish', async () => {
          const r = await postRow(world.t, p.id);
          return r?.status === 'published' ? r : null;
        });
        expect(row.publishedAt).toBeGreaterThanOrEqual(runAt);
        expect(row.claimedBy).toContain(worker.service.deps.instanceId);
      } finally {
        await worker.close();
        await world.close();
      }
    },
  );
});

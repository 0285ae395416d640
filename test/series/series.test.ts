import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema/index.ts';
import { SERIES_HORIZON_MS } from '../../src/features/series/series-extend.ts';
import { wallOf } from '../../src/lib/zoned-time.ts';
import { type Member, type PostWorld, startPostWorld } from '../posts/world.ts';

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

const DAY = 86_400_000;
const req = (m: Member, method: string, path: string, body?: unknown) =>
  w.t.request(method, path, { key: m.apiKey, body });
const startSeries = async (m: Member, body: Record<string, unknown>) => {
  const res = await req(m, 'POST', '/v1/posts', { channelId: m.channelId, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body as { post: any; series: any };
};
const occurrences = async (m: Member, seriesId: string) => {
  const res = await req(m, 'GET', `/v1/posts?seriesId=${seriesId}&limit=100`);
  expect(res.status, res.text).toBe(200);
  return (res.body.posts as any[]).sort((a, b) => a.scheduledFor - b.scheduledFor);
};
const sweep = () => w.t.service.runner!.runOnce();

/** Runs `work` with the clock moved forward by `ms`, then puts it back. */
async function later<T>(ms: number, work: () => Promise<T>): Promise<T> {
  w.clock.advance(ms);
  try {
    return await work();
  } finally {
    w.clock.advance(-ms);
  }
}

describe('recurring series', () => {
  it('creates its occurrences up to the horizon, each its own post with the seriesId, and ends at count', async () => {
    const runAt = w.clock.now() + 3_600_000;
    const { post, series } = await startSeries(alice, {
      text: 'Weekly digest',
      runAt,
      repeat: { every: { unit: 'week', n: 1 }, count: 6 },
    });
    expect(post).toMatchObject({ status: 'scheduled', scheduledFor: runAt, seriesId: series.id });
    expect(series).toMatchObject({
      kind: 'recurring',
      every: { unit: 'week', n: 1 },
      count: 6,
      status: 'active',
      timezone: 'UTC',
    });
    // 0, 7, 14, 21 days are within the 28-day horizon; day 28 + 1 h is not.
    let list = await occurrences(alice, series.id);
    expect(list.map((p) => p.scheduledFor)).toEqual([0, 1, 2, 3].map((k) => runAt + k * 7 * DAY));
    expect(new Set(list.map((p) => p.id)).size).toBe(4);
    // Two weeks later the sweep has extended it to 6 and the series has ended.
    await later(14 * DAY, async () => {
      await sweep();
      await sweep();
    });
    list = await occurrences(alice, series.id);
    expect(list.map((p) => p.scheduledFor)).toEqual([0, 1, 2, 3, 4, 5].map((k) => runAt + k * 7 * DAY));
    const after = (await req(alice, 'GET', `/v1/series/${series.id}`)).body.series;
    expect(after).toMatchObject({ status: 'ended', occurrences: 6, nextAt: null });
    // Nothing more, however long the sweep runs.
    await later(60 * DAY, sweep);
    expect(await occurrences(alice, series.id)).toHaveLength(6);
  });

  it('ends after until: no occurrence falls after it', async () => {
    const runAt = w.clock.now() + 60_000;
    const until = runAt + 3 * DAY + 1;
    const { series } = await startSeries(alice, {
      text: 'Daily until Thursday',
      runAt,
      repeat: { every: { unit: 'day', n: 1 }, until },
    });
    const list = await occurrences(alice, series.id);
    expect(list.map((p) => p.scheduledFor)).toEqual([0, 1, 2, 3].map((k) => runAt + k * DAY));
    expect((await req(alice, 'GET', `/v1/series/${series.id}`)).body.series).toMatchObject({
      status: 'ended',
      occurrences: 4,
      until,
    });
  });

  it("keeps the local time in the channel queue's zone across a change (New York, fall back)", async () => {
    const m = await w.member();
    await req(m, 'PUT', `/v1/channels/${m.channelId}/queue`, {
      timezone: 'America/New_York',
      slots: [{ day: 1, time: '09:00' }],
    });
    const jump = Date.UTC(2027, 9, 30, 12) - w.clock.now();
    await later(jump, async () => {
      const runAt = Date.UTC(2027, 9, 31, 13, 30); // Sunday 09:30 EDT
      const { series } = await startSeries(m, {
        text: 'Sunday notes',
        runAt,
        repeat: { every: { unit: 'day', n: 7 }, count: 3 },
      });
      expect(series.timezone).toBe('America/New_York');
      const list = await occurrences(m, series.id);
      expect(list.map((p) => new Date(p.scheduledFor).toISOString())).toEqual([
        '2027-10-31T13:30:00.000Z',
        '2027-11-07T14:30:00.000Z',
        '2027-11-14T14:30:00.000Z',
      ]);
      for (const p of list)
        expect(wallOf(p.scheduledFor, 'America/New_York')).toMatchObject({ hour: 9, minute: 30 });
    });
  });

  it('editing or canceling one occurrence leaves the others; DELETE /v1/series cancels every future one', async () => {
    const runAt = w.clock.now() + 3_600_000;
    const { series } = await startSeries(alice, {
      text: 'Every other day',
      runAt,
      repeat: { every: { unit: 'day', n: 2 }, count: 5 },
    });
    const [a, b, c, d, e] = await occurrences(alice, series.id);
    const moved = await req(alice, 'POST', `/v1/posts/${b.id}/schedule`, {
      runAt: b.scheduledFor + 3_600_000,
    });
    expect(moved.status, moved.text).toBe(200);
    expect((await req(alice, 'POST', `/v1/posts/${c.id}/cancel`)).body.post.status).toBe('canceled');
    let list = await occurrences(alice, series.id);
    expect(list.map((p) => [p.id, p.status, p.scheduledFor])).toEqual([
      [a.id, 'scheduled', a.scheduledFor],
      [b.id, 'scheduled', b.scheduledFor + 3_600_000],
      [c.id, 'canceled', c.scheduledFor],
      [d.id, 'scheduled', d.scheduledFor],
      [e.id, 'scheduled', e.scheduledFor],
    ]);
    // The first occurrence is published already: it stays so.
    expect((await req(alice, 'POST', `/v1/posts/${a.id}/publish`)).body.post.status).toBe('published');
    const del = await req(alice, 'DELETE', `/v1/series/${series.id}`);
    expect(del.status, del.text).toBe(200);
    expect(del.body.series.status).toBe('canceled');
    expect(del.body.canceled.sort()).toEqual([b.id, d.id, e.id].sort());
    list = await occurrences(alice, series.id);
    expect(list.map((p) => p.status)).toEqual(['published', 'canceled', 'canceled', 'canceled', 'canceled']);
    // Again: nothing more to cancel, and the sweep creates nothing for a canceled series.
    expect((await req(alice, 'DELETE', `/v1/series/${series.id}`)).body.canceled).toEqual([]);
    await later(30 * DAY, sweep);
    expect(await occurrences(alice, series.id)).toHaveLength(5);
  });

  it('refuses repeat without runAt or queue, and each wrong combination at its field', async () => {
    const cases: [Record<string, unknown>, { path: string; message: string }[]][] = [
      [
        { repeat: { every: { unit: 'day', n: 1 } } },
        [
          {
            path: 'repeat',
            message:
              'A series needs runAt (recurring, with repeat.every) or queue: true (evergreen, with repeat.minGapDays)',
          },
        ],
      ],
      [
        { runAt: w.clock.now() + DAY, repeat: { count: 3 } },
        [{ path: 'repeat.every', message: 'A recurring series needs every: {unit: day, week or month, n}' }],
      ],
      [
        { runAt: w.clock.now() + DAY, repeat: { every: { unit: 'week', n: 1 }, until: w.clock.now() } },
        [
          {
            path: 'repeat.until',
            message: expect.stringMatching(
              /^Must be after the first occurrence \(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)$/,
            ),
          },
        ],
      ],
      [
        { runAt: 8_000_000_000_000_000, repeat: { every: { unit: 'day', n: 1 } } },
        [
          {
            path: 'runAt',
            message: 'A series must start within 10 years; its first occurrence is too far ahead',
          },
        ],
      ],
      [
        { runAt: w.clock.now() + DAY, repeat: { every: { unit: 'day', n: 1 }, timezone: 'Nowhere/City' } },
        [{ path: 'repeat.timezone', message: 'Not an IANA time zone (e.g. Europe/Paris)' }],
      ],
    ];
    for (const [body, details] of cases) {
      const res = await req(alice, 'POST', '/v1/posts', {
        text: 'Bad series',
        channelId: alice.channelId,
        ...body,
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details).toEqual(details);
    }
    const bad = await req(alice, 'POST', '/v1/posts', {
      text: 'Bad n',
      channelId: alice.channelId,
      runAt: w.clock.now() + DAY,
      repeat: { every: { unit: 'year', n: 0 }, count: 1001 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'repeat.count',
      'repeat.every.n',
      'repeat.every.unit',
    ]);
  });
});

describe('evergreen series', () => {
  it('re-queues the text into free slots at least minGapDays apart, skipping slots too close to the same text', async () => {
    const m = await w.member();
    await req(m, 'PUT', `/v1/channels/${m.channelId}/queue`, {
      timezone: 'UTC',
      slots: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, time: '10:00' })),
    });
    const slots = (await req(m, 'GET', `/v1/channels/${m.channelId}/queue?count=30`)).body.upcoming.map(
      (s: { at: number }) => s.at,
    );
    // The same text already scheduled by hand on the third slot: the series keeps 10 days from it too.
    const pinned = await req(m, 'POST', '/v1/posts', {
      text: 'Our best guide, again',
      channelId: m.channelId,
      runAt: slots[2],
    });
    expect(pinned.status).toBe(201);
    const { post, series, slot } = (
      await req(m, 'POST', '/v1/posts', {
        text: 'Our best guide, again',
        channelId: m.channelId,
        queue: true,
        repeat: { minGapDays: 10, count: 3 },
      })
    ).body;
    expect(series).toMatchObject({ kind: 'evergreen', minGapDays: 10, count: 3, every: null });
    // Slots 0-11 are within 10 days of the pinned one (daily slots); slot 12 is 10 days after it.
    expect(post.scheduledFor).toBe(slots[12]);
    expect(slot.at).toBe(slots[12]);
    const list = await occurrences(m, series.id);
    expect(list.map((p) => p.scheduledFor)).toEqual([slots[12], slots[22]]);
    // A plain queued post still takes the first free slot.
    const plain = await req(m, 'POST', '/v1/posts', {
      text: 'Something else',
      channelId: m.channelId,
      queue: true,
    });
    expect(plain.body.post.scheduledFor).toBe(slots[0]);
    await later(SERIES_HORIZON_MS, sweep);
    const all = await occurrences(m, series.id);
    expect(all).toHaveLength(3);
    expect(all[2].scheduledFor - all[1].scheduledFor).toBeGreaterThanOrEqual(10 * DAY);
    expect((await req(m, 'GET', `/v1/series/${series.id}`)).body.series.status).toBe('ended');
  });

  it('needs minGapDays and a queue with slots', async () => {
    const m = await w.member();
    const noGap = await req(m, 'POST', '/v1/posts', {
      text: 'Evergreen',
      channelId: m.channelId,
      queue: true,
      repeat: { count: 2 },
    });
    expect(noGap.status).toBe(400);
    expect(noGap.body.error.details).toEqual([
      {
        path: 'repeat.minGapDays',
        message: 'An evergreen series needs the least number of days between two of its posts',
      },
    ]);
    const empty = await req(m, 'POST', '/v1/posts', {
      text: 'Evergreen',
      channelId: m.channelId,
      queue: true,
      repeat: { minGapDays: 7 },
    });
    expect(empty.status).toBe(409);
    expect(empty.body.error.code).toBe('queue_empty');
    expect((await req(m, 'GET', '/v1/series')).body.series).toEqual([]);
  });
});

describe('series tenancy', () => {
  it("another account's series is 404 to get and to cancel, 400 as a list filter, and is left untouched", async () => {
    const { series } = await startSeries(alice, {
      text: 'Private series',
      runAt: w.clock.now() + DAY,
      repeat: { every: { unit: 'month', n: 1 }, count: 2 },
    });
    expect((await req(bob, 'GET', `/v1/series/${series.id}`)).status).toBe(404);
    const del = await req(bob, 'DELETE', `/v1/series/${series.id}`);
    expect(del.status).toBe(404);
    expect(del.body.error.code).toBe('not_found');
    const list = await req(bob, 'GET', `/v1/posts?seriesId=${series.id}`);
    expect(list.status).toBe(400);
    expect(list.body.error.details).toEqual([
      { path: 'querystring.seriesId', message: 'No such series for this account' },
    ]);
    expect((await req(bob, 'GET', '/v1/series')).body.series).toEqual([]);
    expect((await req(alice, 'GET', `/v1/series/${series.id}`)).body.series.status).toBe('active');
    const rows = await w.t.service.deps.db.select().from(posts).where(eq(posts.seriesId, series.id));
    expect(rows.map((r) => r.status)).toEqual(['scheduled']);
  });
});

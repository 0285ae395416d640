import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A deterministic stream in [0, 1) (mulberry32). */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY = 86_400_000;
/** Monday 6 January 2025, 09:00 UTC. */
const MONDAY_9AM = Date.UTC(2025, 0, 6, 9);

async function account(items: Record<string, unknown>[]) {
  const { apiKey } = await t.signup();
  if (items.length) {
    const res = await t.request('POST', '/v1/history', { key: apiKey, body: { items } });
    expect(res.status, res.text).toBe(201);
  }
  return apiKey;
}

const insights = async (key: string, query = '') => {
  const res = await t.request('GET', `/v1/insights${query}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe('GET /v1/insights timing', () => {
  it('says there is not enough history instead of guessing', async () => {
    const key = await account([
      { text: 'one', reactions: 5, publishedAt: MONDAY_9AM },
      { text: 'two', reactions: 50, publishedAt: MONDAY_9AM + DAY },
    ]);
    const body = await insights(key);
    expect(body.basedOn).toEqual({ posts: 2, withEngagement: 2, withDate: 2, withTime: 2 });
    expect(body.medianEngagement).toBe(27.5);
    expect(body.days.best).toEqual([]);
    expect(body.days.note).toMatch(/Not enough history to judge days: 2 posts .* at least 20/);
    expect(body.days.slots.every((s: { standsOut: boolean }) => !s.standsOut)).toBe(true);
    expect(body.factors).toEqual({
      basedOn: 0,
      positive: [],
      negative: [],
      note: 'Not enough history for a personal score: 2 posts with engagement; 10 are needed.',
    });
  });

  it('names a day that truly does better, and no hour when all posts share one window', async () => {
    const random = rng(7);
    const items = Array.from({ length: 42 }, (_, i) => {
      const day = i % 7; // Monday.. Sunday, six weeks
      const tuesday = day === 1;
      return {
        text: `Post ${i}`,
        publishedAt: MONDAY_9AM + (Math.floor(i / 7) * 7 + day) * DAY,
        reactions: Math.round((tuesday ? 200 : 20) * (0.7 + 0.6 * random())),
        comments: 1,
      };
    });
    const body = await insights(await account(items));
    expect(body.days.best).toEqual(['Tuesday']);
    const tuesday = body.days.slots.find((s: { slot: string }) => s.slot === 'Tuesday');
    expect(tuesday.standsOut).toBe(true);
    expect(tuesday.posts).toBe(6);
    expect(tuesday.multiple).toBeGreaterThan(5);
    expect(body.days.note).toMatch(/^Tuesday: [\d.]+x your median engagement over 6 posts/);
    expect(body.hours.best).toEqual([]);
    expect(body.hours.note).toMatch(/too concentrated/);
  });

  it('finds nothing special in noise', async () => {
    const random = rng(11);
    const items = Array.from({ length: 60 }, (_, i) => ({
      text: `Noise ${i}`,
      publishedAt: MONDAY_9AM + i * DAY + Math.floor(random() * 12) * 3_600_000,
      reactions: Math.round(10 + 90 * random()),
    }));
    const body = await insights(await account(items));
    expect(body.days.best).toEqual([]);
    expect(body.days.worst).toEqual([]);
    expect(body.hours.best).toEqual([]);
    expect(body.days.note).toMatch(/No day stands out/);
  });

  it('places posts in the requested time zone; a bare date counts for days only', async () => {
    const key = await account([
      { text: 'late monday utc', reactions: 1, publishedAt: '2025-01-06T23:30:00Z' },
      { text: 'date only', reactions: 1, publishedAt: '2025-01-06' },
    ]);
    const utc = await insights(key);
    expect(utc.basedOn.withTime).toBe(1);
    expect(utc.days.slots.find((s: { slot: string }) => s.slot === 'Monday').posts).toBe(2);
    expect(utc.hours.slots.find((s: { slot: string }) => s.slot === '21:00-24:00').posts).toBe(1);
    const tokyo = await insights(key, '?timezone=Asia/Tokyo');
    expect(tokyo.timezone).toBe('Asia/Tokyo');
    expect(tokyo.days.slots.find((s: { slot: string }) => s.slot === 'Tuesday').posts).toBe(1);
    expect(tokyo.days.slots.find((s: { slot: string }) => s.slot === 'Monday').posts).toBe(1);
    expect(tokyo.hours.slots.find((s: { slot: string }) => s.slot === '06:00-09:00').posts).toBe(1);

    const bad = await t.request('GET', '/v1/insights?timezone=Mars/Olympus', { key });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('querystring.timezone');
  });

  it('maps weekday and time together on the author’s clock, each cell with the posts behind it', async () => {
    const random = rng(5);
    const HOUR = 3_600_000;
    // Eight Tuesdays at 09:30 in Paris (08:30 UTC in winter) earn ten times the rest.
    const tuesdays = Array.from({ length: 8 }, (_, w) => ({
      text: `Tuesday morning ${w}`,
      publishedAt: MONDAY_9AM + (w * 7 + 1) * DAY - 30 * 60_000,
      reactions: Math.round(200 * (0.8 + 0.4 * random())),
    }));
    // The rest every day of the week in the afternoon (14:00-21:00 in Paris).
    const rest = Array.from({ length: 52 }, (_, i) => ({
      text: `Afternoon ${i}`,
      publishedAt: MONDAY_9AM + i * DAY + (4 + ((i * 5) % 8)) * HOUR,
      reactions: Math.round(20 * (0.7 + 0.6 * random())),
    }));
    const key = await account([
      ...tuesdays,
      ...rest,
      { text: 'date only', reactions: 3, publishedAt: '2025-02-01' },
    ]);
    const paris = (await insights(key, '?timezone=Europe/Paris')).grid;
    expect(paris.hoursPerCell).toBe(3);
    expect(paris.cells).toHaveLength(56);
    expect(
      paris.cells
        .slice(0, 2)
        .map((c: { slot: string; day: number; hour: number }) => [c.slot, c.day, c.hour]),
    ).toEqual([
      ['Sunday 00:00-03:00', 0, 0],
      ['Sunday 03:00-06:00', 0, 3],
    ]);
    // Every timed post is in one cell; the bare date is in none.
    expect(paris.posts).toBe(60);
    expect(paris.cells.reduce((n: number, c: { posts: number }) => n + c.posts, 0)).toBe(60);
    const cell = paris.cells.find((c: { day: number; hour: number }) => c.day === 2 && c.hour === 9);
    expect(cell).toMatchObject({ slot: 'Tuesday 09:00-12:00', posts: 8, standsOut: true });
    expect(cell.multiple).toBeGreaterThan(5);
    expect(paris.best).toEqual(['Tuesday 09:00-12:00']);
    expect(paris.note).toMatch(/^Tuesday 09:00-12:00: [\d.]+x your median engagement over 8 posts \(p[=<]/);
    // On UTC's clock the same posts sit an hour earlier, in the window before.
    const utc = (await insights(key)).grid;
    expect(utc.cells.find((c: { day: number; hour: number }) => c.day === 2 && c.hour === 6).posts).toBe(8);
    expect(utc.cells.find((c: { day: number; hour: number }) => c.day === 2 && c.hour === 9).posts).toBe(0);
  });

  it('says when the history is too short for the weekday-and-time map', async () => {
    const key = await account([{ text: 'one', reactions: 5, publishedAt: MONDAY_9AM }]);
    const { grid } = await insights(key);
    expect(grid.note).toBe(
      'Not enough history to judge weekdays and times together: 1 post with engagement and a publish time; at least 20 are needed.',
    );
    expect(
      grid.cells.filter((c: { posts: number }) => c.posts > 0).map((c: { slot: string }) => c.slot),
    ).toEqual(['Monday 09:00-12:00']);
    expect(grid.best).toEqual([]);
  });

  it('reads only the caller’s history', async () => {
    const items = Array.from({ length: 30 }, (_, i) => ({
      text: `Mine ${i}`,
      reactions: i,
      publishedAt: MONDAY_9AM + i * DAY,
    }));
    await account(items);
    const stranger = await account([]);
    const body = await insights(stranger);
    expect(body.basedOn).toEqual({ posts: 0, withEngagement: 0, withDate: 0, withTime: 0 });
    expect(body.medianEngagement).toBeNull();
    expect((await t.request('GET', '/v1/insights')).status).toBe(401);
  });
});

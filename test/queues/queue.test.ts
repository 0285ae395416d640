import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wallOf } from '../../src/lib/zoned-time.ts';
import { createPost, type Member, type PostWorld, startPostWorld } from '../posts/world.ts';

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
const putQueue = (m: Member, body: unknown, channelId = m.channelId) =>
  req(m, 'PUT', `/v1/channels/${channelId}/queue`, body);
const queued = (m: Member, text: string, extra: Record<string, unknown> = {}) =>
  req(m, 'POST', '/v1/posts', { text, channelId: m.channelId, queue: true, ...extra });

/** A fresh member with its own channel, so each test's queue starts empty. */
async function freshMember() {
  return w.member();
}

describe('PUT/GET/DELETE /v1/channels/{id}/queue', () => {
  it('stores the slots in weekday and time order and lists the upcoming slot times', async () => {
    const m = await freshMember();
    const res = await putQueue(m, {
      timezone: 'Europe/Paris',
      slots: [
        { day: 3, time: '17:30' },
        { day: 1, time: '09:00' },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.queue).toEqual({
      timezone: 'Europe/Paris',
      slots: [
        { day: 1, time: '09:00' },
        { day: 3, time: '17:30' },
      ],
    });
    const view = await req(m, 'GET', `/v1/channels/${m.channelId}/queue?count=4`);
    expect(view.status, view.text).toBe(200);
    expect(view.body.upcoming).toHaveLength(4);
    const now = w.clock.now();
    for (const [i, slot] of view.body.upcoming.entries()) {
      expect(slot.postId).toBeNull();
      expect(slot.at).toBeGreaterThan(now);
      if (i > 0) expect(slot.at).toBeGreaterThan(view.body.upcoming[i - 1].at);
      const local = wallOf(slot.at, 'Europe/Paris');
      expect([`${local.hour}:${local.minute}`]).toContain(local.hour === 9 ? '9:0' : '17:30');
    }
  });

  it('refuses more than 100 slots, an unknown zone, a bad time and a slot listed twice, each at its field', async () => {
    const m = await freshMember();
    const many = Array.from({ length: 101 }, (_, i) => ({
      day: (i % 7) + 1,
      time: `${String(Math.floor(i / 7)).padStart(2, '0')}:00`,
    }));
    const tooMany = await putQueue(m, { timezone: 'UTC', slots: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details.map((d: { path: string }) => d.path)).toContain('slots');

    const zone = await putQueue(m, { timezone: 'Mars/Olympus', slots: [{ day: 1, time: '09:00' }] });
    expect(zone.status).toBe(400);
    expect(zone.body.error.message).toBe(
      'Unknown time zone "Mars/Olympus"; use an IANA name such as Europe/Paris.',
    );
    expect(zone.body.error.details).toEqual([{ path: 'timezone', message: 'Not an IANA time zone' }]);

    const badTime = await putQueue(m, { timezone: 'UTC', slots: [{ day: 8, time: '24:00' }] });
    expect(badTime.status).toBe(400);
    const paths = badTime.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['slots[0].day', 'slots[0].time']));

    const twice = await putQueue(m, {
      timezone: 'UTC',
      slots: [
        { day: 2, time: '08:00' },
        { day: 4, time: '12:00' },
        { day: 2, time: '08:00' },
      ],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error.details).toEqual([
      {
        path: 'slots[2]',
        message: 'The same slot as slots[0] (Tuesday 08:00); list each slot once',
      },
    ]);
    // Nothing was stored by the refused requests.
    const view = await req(m, 'GET', `/v1/channels/${m.channelId}/queue`);
    expect(view.body).toEqual({ queue: { timezone: 'UTC', slots: [] }, upcoming: [] });
  });

  it('DELETE clears the slots; queue: true then answers 409 queue_empty', async () => {
    const m = await freshMember();
    expect((await putQueue(m, { timezone: 'UTC', slots: [{ day: 5, time: '10:00' }] })).status).toBe(200);
    const del = await req(m, 'DELETE', `/v1/channels/${m.channelId}/queue`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: true });
    const again = await req(m, 'DELETE', `/v1/channels/${m.channelId}/queue`);
    expect(again.body).toEqual({ deleted: false });
    const res = await queued(m, 'Nothing to queue into');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('queue_empty');
    expect(res.body.error.message).toBe(
      `Channel ${m.channelId} has no queue slots; set some with PUT /v1/channels/${m.channelId}/queue or give the post a runAt.`,
    );
  });

  it("another account's channel is 404 for every queue route, and nothing changes", async () => {
    await putQueue(alice, { timezone: 'UTC', slots: [{ day: 1, time: '07:00' }] });
    const base = `/v1/channels/${alice.channelId}/queue`;
    for (const [method, path, body] of [
      ['GET', base, undefined],
      ['PUT', base, { timezone: 'UTC', slots: [] }],
      ['DELETE', base, undefined],
      ['GET', `${base}/suggest`, undefined],
    ] as const) {
      const res = await req(bob, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    const res = await req(bob, 'POST', '/v1/posts', {
      text: 'Into her queue',
      channelId: alice.channelId,
      queue: true,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: 'channelId', message: 'No such channel for this account' },
    ]);
    expect((await req(alice, 'GET', base)).body.queue.slots).toEqual([{ day: 1, time: '07:00' }]);
  });
});

describe('POST /v1/posts with queue: true', () => {
  it('takes the next free slot, says which, and the next post takes the one after', async () => {
    const m = await freshMember();
    await putQueue(m, {
      timezone: 'America/New_York',
      slots: [
        { day: 2, time: '08:15' },
        { day: 4, time: '12:00' },
      ],
    });
    const view = (await req(m, 'GET', `/v1/channels/${m.channelId}/queue?count=3`)).body.upcoming;
    const first = await queued(m, 'First in the queue');
    expect(first.status, first.text).toBe(201);
    expect(first.body.post).toMatchObject({ status: 'scheduled', scheduledFor: view[0].at });
    const local = wallOf(view[0].at, 'America/New_York');
    expect(first.body.slot).toEqual({
      at: view[0].at,
      timezone: 'America/New_York',
      day: local.hour === 8 ? 2 : 4,
      time: local.hour === 8 ? '08:15' : '12:00',
    });
    const second = await queued(m, 'Second in the queue');
    expect(second.body.post.scheduledFor).toBe(view[1].at);
    const after = (await req(m, 'GET', `/v1/channels/${m.channelId}/queue?count=3`)).body.upcoming;
    expect(after.map((s: { postId: string | null }) => s.postId)).toEqual([
      first.body.post.id,
      second.body.post.id,
      null,
    ]);
  });

  it('skips a slot held by a post scheduled there with runAt, and reuses a slot freed by cancel or delete', async () => {
    const m = await freshMember();
    await putQueue(m, {
      timezone: 'UTC',
      slots: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, time: '06:00' })),
    });
    const slots = (await req(m, 'GET', `/v1/channels/${m.channelId}/queue?count=5`)).body.upcoming.map(
      (s: { at: number }) => s.at,
    );
    await createPost(w.t, m, { text: 'Pinned by hand', channelId: m.channelId, runAt: slots[0] });
    const a = (await queued(m, 'Queued A')).body.post;
    const b = (await queued(m, 'Queued B')).body.post;
    const c = (await queued(m, 'Queued C')).body.post;
    expect([a.scheduledFor, b.scheduledFor, c.scheduledFor]).toEqual([slots[1], slots[2], slots[3]]);
    // Canceling B frees its slot: the next queued post takes it (the trigger lowered the hint).
    expect((await req(m, 'POST', `/v1/posts/${b.id}/cancel`)).status).toBe(200);
    expect((await queued(m, 'Queued D')).body.post.scheduledFor).toBe(slots[2]);
    expect((await req(m, 'DELETE', `/v1/posts/${a.id}`)).status).toBe(200);
    expect((await queued(m, 'Queued E')).body.post.scheduledFor).toBe(slots[1]);
    // Rescheduling C away frees its slot too.
    expect((await req(m, 'POST', `/v1/posts/${c.id}/schedule`, { runAt: slots[4] + 60_000 })).status).toBe(
      200,
    );
    expect((await queued(m, 'Queued F')).body.post.scheduledFor).toBe(slots[3]);
    expect((await queued(m, 'Queued G')).body.post.scheduledFor).toBe(slots[4]);
  });

  it('walks past more taken slots than one read covers (70 slots held by posts scheduled with runAt)', async () => {
    const m = await freshMember();
    await putQueue(m, { timezone: 'Asia/Kolkata', slots: [1, 3, 5].map((day) => ({ day, time: '09:30' })) });
    const slots = (await req(m, 'GET', `/v1/channels/${m.channelId}/queue?count=71`)).body.upcoming.map(
      (s: { at: number }) => s.at,
    );
    const items = slots
      .slice(0, 70)
      .map((runAt: number, i: number) => ({ text: `Held ${i}`, channelId: m.channelId, runAt }));
    expect((await req(m, 'POST', '/v1/posts/bulk-schedule', { items })).status).toBe(201);
    const res = await queued(m, 'After seventy');
    expect(res.status, res.text).toBe(201);
    expect(res.body.post.scheduledFor).toBe(slots[70]);
  });

  it('refuses queue without a channel and queue with runAt, each at its field', async () => {
    const noChannel = await req(alice, 'POST', '/v1/posts', { text: 'Where to?', queue: true });
    expect(noChannel.status).toBe(400);
    expect(noChannel.body.error.details).toEqual([
      {
        path: 'channelId',
        message: "A queued post needs a channel: its time comes from that channel's queue",
      },
    ]);
    const both = await queued(alice, 'Both', { runAt: w.clock.now() + DAY });
    expect(both.status).toBe(400);
    expect(both.body.error.details).toEqual([
      {
        path: 'runAt',
        message: 'Give either runAt or queue: true; a queued post takes its time from the queue',
      },
    ]);
  });

  it('twenty concurrent queue: true creates each get a different slot, in a queue of two slots a week', async () => {
    const m = await freshMember();
    await putQueue(m, {
      timezone: 'Europe/Paris',
      slots: [
        { day: 1, time: '09:00' },
        { day: 5, time: '16:00' },
      ],
    });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => queued(m, `Concurrent ${i}`)));
    for (const r of results) expect(r.status, r.text).toBe(201);
    const times = results.map((r) => r.body.post.scheduledFor as number);
    expect(new Set(times).size).toBe(20);
    const expected = (await req(m, 'GET', `/v1/channels/${m.channelId}/queue?count=20`)).body.upcoming;
    expect([...times].sort((x, y) => x - y)).toEqual(expected.map((s: { at: number }) => s.at));
    expect(expected.every((s: { postId: string | null }) => s.postId !== null)).toBe(true);
  });

  it('follows the zone across the spring change: a slot in the skipped hour lands on 03:00 local', async () => {
    const m = await freshMember();
    await putQueue(m, {
      timezone: 'Europe/Paris',
      slots: [
        { day: 7, time: '02:30' },
        { day: 7, time: '09:00' },
      ],
    });
    // Move the clock to Friday 26 March 2027 (the change is on Sunday the 28th).
    const jump = Date.UTC(2027, 2, 26, 12) - w.clock.now();
    w.clock.advance(jump);
    try {
      const a = (await queued(m, 'Spring A')).body;
      const b = (await queued(m, 'Spring B')).body;
      expect(new Date(a.post.scheduledFor).toISOString()).toBe('2027-03-28T01:00:00.000Z');
      expect(a.slot).toMatchObject({ day: 7, time: '03:00', timezone: 'Europe/Paris' });
      expect(new Date(b.post.scheduledFor).toISOString()).toBe('2027-03-28T07:00:00.000Z');
    } finally {
      w.clock.advance(-jump);
    }
  });
});

describe('POST /v1/posts/{id}/schedule with queue: true', () => {
  it("moves drafts to the channel's next free slots, one after another, and refuses what cannot be queued", async () => {
    const m = await freshMember();
    const draft = (text: string, extra: Record<string, unknown> = {}) =>
      createPost(w.t, m, { text, channelId: m.channelId, ...extra });
    const queue = (id: string, body: unknown, member = m) =>
      req(member, 'POST', `/v1/posts/${id}/schedule`, body);
    const a = await draft('Queued draft A');
    // No slots yet: 409 queue_empty, and the draft stays one.
    const empty = await queue(a.id as string, { queue: true });
    expect(empty.status, empty.text).toBe(409);
    expect(empty.body.error.code).toBe('queue_empty');
    expect((await req(m, 'GET', `/v1/posts/${a.id}`)).body.post.status).toBe('draft');

    await putQueue(m, {
      timezone: 'Europe/London',
      slots: [
        { day: 1, time: '09:00' },
        { day: 5, time: '16:30' },
      ],
    });
    const view = (await req(m, 'GET', `/v1/channels/${m.channelId}/queue?count=3`)).body.upcoming;
    const first = await queue(a.id as string, { queue: true });
    expect(first.status, first.text).toBe(200);
    expect(first.body.post).toMatchObject({ status: 'scheduled', scheduledFor: view[0].at });
    const b = await draft('Queued draft B');
    expect((await queue(b.id as string, { queue: true })).body.post.scheduledFor).toBe(view[1].at);

    const c = await draft('Queued draft C');
    const both = await queue(c.id as string, { queue: true, runAt: w.clock.now() + DAY });
    expect(both.status).toBe(400);
    expect(both.body.error.details.map((d: { path: string }) => d.path)).toEqual(['runAt']);
    const neither = await queue(c.id as string, {});
    expect(neither.status).toBe(400);
    const loose = await createPost(w.t, m, { text: 'No channel' });
    const noChannel = await queue(loose.id as string, { queue: true });
    expect(noChannel.status).toBe(400);
    expect(noChannel.body.error.details.map((d: { path: string }) => d.path)).toEqual(['channelId']);
    // Another account's post is 404, and stays a draft.
    const other = await queue(c.id as string, { queue: true }, bob);
    expect(other.status).toBe(404);
    expect((await req(m, 'GET', `/v1/posts/${c.id}`)).body.post.status).toBe('draft');
  });
});

describe('POST /v1/posts/bulk-schedule with queue: true items', () => {
  it('gives queued items consecutive free slots, in item order, beside items with runAt', async () => {
    const m = await freshMember();
    await putQueue(m, { timezone: 'UTC', slots: [{ day: 3, time: '11:00' }] });
    const slots = (await req(m, 'GET', `/v1/channels/${m.channelId}/queue?count=3`)).body.upcoming.map(
      (s: { at: number }) => s.at,
    );
    const res = await req(m, 'POST', '/v1/posts/bulk-schedule', {
      items: [
        { text: 'Bulk queued 1', channelId: m.channelId, queue: true },
        { text: 'Bulk timed', channelId: m.channelId, runAt: slots[0] },
        { text: 'Bulk queued 2', channelId: m.channelId, queue: true },
      ],
    });
    expect(res.status, res.text).toBe(201);
    expect(
      res.body.posts.map((p: { text: string; scheduledFor: number }) => [p.text, p.scheduledFor]),
    ).toEqual([
      ['Bulk queued 1', slots[1]],
      ['Bulk timed', slots[0]],
      ['Bulk queued 2', slots[2]],
    ]);
  });

  it('names each item without a time, or whose channel has no slots, and creates nothing', async () => {
    const m = await freshMember();
    const res = await req(m, 'POST', '/v1/posts/bulk-schedule', {
      items: [
        { text: 'No time', channelId: m.channelId },
        { text: 'No slots', channelId: m.channelId, queue: true },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: 'items[0].runAt', message: 'Give runAt, or queue: true to take the next free queue slot' },
      {
        path: 'items[1].queue',
        message: 'This channel has no queue slots; set some first, or give runAt',
      },
    ]);
    expect((await req(m, 'GET', '/v1/posts')).body.posts).toEqual([]);
  });
});

describe('GET /v1/channels/{id}/queue/suggest', () => {
  it('falls back to the general figures when history is thin, and says so', async () => {
    const m = await freshMember();
    const res = await req(
      m,
      'GET',
      `/v1/channels/${m.channelId}/queue/suggest?count=3&timezone=Europe/Paris`,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ source: 'general', timezone: 'Europe/Paris', basedOn: 0 });
    expect(res.body.slots).toEqual([
      {
        day: 2,
        time: '08:00',
        posts: null,
        multiple: null,
        reason: 'A midweek day at a morning commute peak (general figure).',
      },
      {
        day: 3,
        time: '08:00',
        posts: null,
        multiple: null,
        reason: 'A midweek day at a morning commute peak (general figure).',
      },
      {
        day: 4,
        time: '08:00',
        posts: null,
        multiple: null,
        reason: 'A midweek day at a morning commute peak (general figure).',
      },
    ]);
    expect(res.body.note).toBe(
      'None of your posts on platformA has engagement and a publish time yet; at least 20 are needed to judge your own best times, so these are the general figures: midweek days at the commute and lunch peaks. Day and hour effects are within about 20%, so your own results will say more once you have them.',
    );
  });

  it("proposes the author's own best weekday windows with their evidence", async () => {
    const m = await freshMember();
    // Mondays 09:xx UTC (10:xx Paris in winter) do well; other times are ordinary.
    const monday = Date.UTC(2025, 0, 6, 9, 10);
    const items = [];
    for (let k = 0; k < 8; k++)
      items.push({ text: `Monday morning ${k}`, reactions: 90 + k, publishedAt: monday + k * 7 * DAY });
    for (let k = 0; k < 24; k++)
      items.push({
        text: `Ordinary ${k}`,
        reactions: 10 + (k % 5),
        publishedAt: monday + DAY + k * 2 * DAY + 5 * 3_600_000,
      });
    const imported = await req(m, 'POST', '/v1/history', { items });
    expect(imported.status, imported.text).toBe(201);
    const res = await req(m, 'GET', `/v1/channels/${m.channelId}/queue/suggest?timezone=Europe/Paris`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.source).toBe('history');
    expect(res.body.basedOn).toBe(32);
    expect(res.body.slots[0]).toMatchObject({ day: 1, time: '10:00', posts: 8 });
    expect(res.body.slots[0].multiple).toBeGreaterThan(3);
    expect(res.body.slots[0].reason).toBe(
      `Your 8 posts on Mondays between 09:00 and 12:00 earned ${res.body.slots[0].multiple}x your median engagement.`,
    );
    expect(res.body.note).toMatch(/^From 32 posts of yours on platformA with engagement and a publish time/);
  });
});

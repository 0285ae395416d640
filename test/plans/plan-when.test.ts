import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { byAuthor, isHeldOut } from '../../scripts/lib/datasets.ts';
import { modelUsage } from '../../src/db/schema/index.ts';
import { addDays, instantOf, isoWeekday, wallOf } from '../../src/lib/zoned-time.ts';
import { briefFromPost, describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';
import { callErr, callOk, connectClient } from '../mcp/helpers.ts';
import { type Member, type PostWorld, startPostWorld } from '../posts/world.ts';

/**
 * Issue 34 item 2, plans placed on the writer's own times. One real author's posts (not held out)
 * are imported as the history with their real texts, formats and engagement; their publish times
 * are set so the best third went out on Tuesdays at 10:00 New York time and the rest on Thursday
 * evenings. The account's zone is America/New_York. Then:
 * - every item carries evidence and a `when` on Tuesday 09:00-12:00 New York time, said as
 *   "Eastern Time", never UTC;
 * - with `channelId` and a queue, every `when` is one of the queue's upcoming free slots, the
 *   Tuesday ones first; without a history, the next free slots in order;
 * - turning the saved plan into scheduled drafts puts them on those slots;
 * - a channel that is not the caller's (or of another platform) is a 400 at `channelId` that
 *   charges nothing; MCP plan_week takes `channelId` through the same schema.
 */

const ZONE = 'America/New_York';
const author = byAuthor(
  readRealPosts('linkedin-creator-posts.csv').filter((p) => !isHeldOut(p.file, p.author)),
  30,
)[0]!;

/** Tuesday 10:00 (ISO day 2) or Thursday 19:00 (day 4) New York time, `weeks` weeks before September 2026. */
function localAt(isoDay: 2 | 4, hour: number, weeks: number): number {
  // 2026-09-01 is a Tuesday.
  const date = addDays(2026, 9, 1, isoDay - 2 - 7 * weeks);
  expect(isoWeekday(date.year, date.month, date.day)).toBe(isoDay);
  return instantOf({ ...date, hour, minute: 0 }, ZONE);
}

function history() {
  const ranked = [...author!].sort((a, b) => b.engagement - a.engagement).slice(0, 30);
  return {
    items: ranked.map((p, k) => ({
      text: p.text,
      platform: 'platformA',
      publishedAt: k < 10 ? localAt(2, 10, k) : localAt(4, 19, k),
      media: p.media ?? null,
      reactions: p.engagement,
    })),
  };
}

let w: PostWorld;
let alice: Member;
let bob: Member;
let brief: string;

const plan = (m: Member, body: Record<string, unknown>) =>
  w.t.request('POST', '/v1/plan', { key: m.apiKey, body: { brief, ...body } });
const used = async (m: Member) =>
  (await w.t.service.deps.db.select().from(modelUsage).where(eq(modelUsage.accountId, m.accountId))).reduce(
    (s, r) => s + r.count,
    0,
  );
const call = async (m: Member, method: string, url: string, body?: unknown) => {
  const res = await w.t.request(method, url, { key: m.apiKey, body });
  expect(res.status, res.text).toBeLessThan(300);
  return res.body;
};
/** Mondays 08:00, Tuesdays 10:00, Thursdays 19:00 New York time. */
const QUEUE = {
  timezone: ZONE,
  slots: [
    { day: 1, time: '08:00' },
    { day: 2, time: '10:00' },
    { day: 4, time: '19:00' },
  ],
};
const freeUpcoming = async (m: Member) =>
  ((await call(m, 'GET', `/v1/channels/${m.channelId}/queue?count=30`)).upcoming as any[])
    .filter((u) => u.postId === null)
    .map((u) => u.at as number);

interface Item {
  slot: number;
  evidence: string | null;
  when: number | null;
}

describeRealPosts('plans on the writer own times (real posts, no held-out author)', () => {
  beforeAll(async () => {
    expect(author, 'a non-held-out author with 30 posts').toBeDefined();
    brief = briefFromPost(author![0]!.text);
    w = await startPostWorld();
    alice = await w.member();
    bob = await w.member();
    for (const m of [alice, bob]) await call(m, 'PATCH', '/v1/account/settings', { timezone: ZONE });
    await call(alice, 'POST', '/v1/history', history());
  });
  afterAll(async () => {
    await w?.close();
  });

  it("puts every item on the author's best window in the account's zone, said in words", async () => {
    const res = await plan(alice, { count: 4 });
    expect(res.status, res.text).toBe(200);
    const items = res.body.items as Item[];
    expect(items).toHaveLength(4);
    for (const i of items) {
      expect(i.evidence, JSON.stringify(i)).toContain(
        'Tuesday 09:00-12:00 Eastern Time is one of your best windows: 10 posts there earned',
      );
      expect(i.evidence).not.toMatch(/UTC|published figures|America\//);
      const wall = wallOf(i.when!, ZONE);
      expect([isoWeekday(wall.year, wall.month, wall.day), wall.hour, wall.minute]).toEqual([2, 9, 0]);
      expect(i.when!).toBeGreaterThan(w.clock.now());
    }
    const whens = items.map((i) => i.when!);
    expect(new Set(whens).size).toBe(4);
    expect(whens).toEqual([...whens].sort((a, b) => a - b));
  });

  it("with channelId puts the items on the queue's free slots, its best-window ones first", async () => {
    await call(alice, 'PUT', `/v1/channels/${alice.channelId}/queue`, QUEUE);
    // The next slot is taken: a plan must not suggest it.
    await call(alice, 'POST', '/v1/posts', {
      text: 'Queued first.',
      channelId: alice.channelId,
      queue: true,
    });
    const free = await freeUpcoming(alice);
    const res = await plan(alice, { count: 3, channelId: alice.channelId });
    expect(res.status, res.text).toBe(200);
    const items = res.body.items as Item[];
    const tuesdays = free.filter((at) => {
      const wall = wallOf(at, ZONE);
      return isoWeekday(wall.year, wall.month, wall.day) === 2;
    });
    expect(items.map((i) => i.when)).toEqual(tuesdays.slice(0, 3));
    for (const i of items)
      expect(i.evidence).toMatch(
        /Tuesday 10:00 Eastern Time is a free slot in this channel's queue and in one of your best windows: your 10 posts on Tuesdays between 09:00 and 12:00 earned \d+\.\dx your median\./,
      );

    // Saved with the channel and turned into scheduled drafts, the posts take those slots.
    const saved = await call(alice, 'POST', '/v1/plans', {
      brief,
      items: res.body.items,
      channelId: alice.channelId,
    });
    const made = await call(alice, 'POST', `/v1/plans/${saved.plan.id}/drafts`, { schedule: true });
    expect(made.posts.map((p: any) => [p.status, p.scheduledFor])).toEqual(
      items.map((i) => ['scheduled', i.when]),
    );
    const after = await freeUpcoming(alice);
    for (const i of items) expect(after).not.toContain(i.when);
  });

  it('without a history but with a queue, suggests the next free slots and says the figures are published ones', async () => {
    await call(bob, 'PUT', `/v1/channels/${bob.channelId}/queue`, QUEUE);
    const free = await freeUpcoming(bob);
    const res = await plan(bob, { count: 3, channelId: bob.channelId });
    expect(res.status, res.text).toBe(200);
    const items = res.body.items as Item[];
    expect(items.map((i) => i.when)).toEqual(free.slice(0, 3));
    for (const i of items) {
      expect(i.evidence).toMatch(
        /^Based on published figures for this platform: .* Eastern Time is a free slot in this channel's queue\.$/,
      );
      expect(i.evidence).not.toMatch(/best window/);
    }
    // Without the channel nothing suggests a time.
    const plain = await plan(bob, { count: 2 });
    expect((plain.body.items as Item[]).map((i) => i.when)).toEqual([null, null]);
  });

  it("under a cadence, each time falls on the day the item's angle names, and none where there is no slot that day", async () => {
    const label = (angle: string) => /^(Mon|Tue|Wed|Thu|Fri), week 1: /.exec(angle)?.[1];
    const isoDay = (at: number) => {
      const wall = wallOf(at, ZONE);
      return isoWeekday(wall.year, wall.month, wall.day);
    };
    // Bob's queue has Monday, Tuesday and Thursday slots, and no history: the weekdays fall on them.
    const queued = await plan(bob, { count: 5, cadence: 'weekdays', channelId: bob.channelId });
    expect(queued.status, queued.text).toBe(200);
    const items = queued.body.items as (Item & { angle: string })[];
    expect(items.map((i) => label(i.angle))).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']);
    expect(items.map((i) => (i.when === null ? null : isoDay(i.when)))).toEqual([1, 2, null, 4, null]);
    const [mon, tue, , thu] = items.map((i) => i.when);
    expect(mon! < tue! && tue! < thu! && thu! - mon! < 7 * 86_400_000).toBe(true);
    expect(items[2]!.evidence).not.toMatch(/slot|window/);
    // Alice's best window is Tuesday mornings: only the Tuesday item gets a time, on that window.
    const windowed = await plan(alice, { count: 5, cadence: 'weekdays' });
    const got = windowed.body.items as (Item & { angle: string })[];
    expect(got.map((i) => (i.when === null ? null : isoDay(i.when)))).toEqual([null, 2, null, null, null]);
    expect(got[1]!.evidence).toContain('Tuesday 09:00-12:00 Eastern Time is one of your best windows');
  });

  it("refuses another account's channel, or another platform's, with a 400 at channelId that charges nothing", async () => {
    const before = await used(alice);
    for (const body of [
      { count: 2, channelId: bob.channelId },
      { count: 2, channelId: 'chn_nobody' },
      { count: 2, channelId: alice.channelId, platform: 'platformB' },
    ]) {
      const res = await plan(alice, { ...body, brief: `${brief} (asked again)` });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(['channelId']);
      expect(res.text).not.toContain(bob.channelId);
    }
    expect(await used(alice)).toBe(before);
  });

  it('MCP plan_week takes channelId through the same schema', async () => {
    const client: Client = await connectClient(w.t.url, alice.apiKey);
    try {
      const rest = await plan(alice, { count: 2, channelId: alice.channelId });
      const tool = await callOk(client, 'plan_week', { brief, count: 2, channelId: alice.channelId });
      expect(tool.data.items).toEqual(rest.body.items);
      const refused = await callErr(client, 'plan_week', { brief, count: 2, channelId: bob.channelId });
      expect(refused.error.code).toBe('invalid_request');
    } finally {
      await client.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBrief } from '../../src/scoring/writers/brief-reading.ts';
import { type Member, type PostWorld, startPostWorld } from '../posts/world.ts';

/**
 * Issue 34 item 3, "turn into drafts", over HTTP with a sandbox channel: one post per item of a
 * saved plan, each its hook and the brief's facts for it (never the whole brief, never a label);
 * optionally scheduled on each item's suggested instant; asking again makes only what is
 * missing; another account's plan is a 404.
 */

let w: PostWorld;
let alice: Member;
let bob: Member;

const BRIEF = [
  'Shift handovers and night-shift retention at our ICU.',
  'We moved handovers to the bedside in January, and sepsis response time fell from 22 to 9 minutes.',
  'Handovers now take 12 minutes per patient, down from 20.',
  'Night-shift retention rose from 61% to 78% in a year after we stopped rotating nurses weekly.',
  'We hired 14 nurses for nights in March.',
  'Tone: warm, no hype. Audience: new nurses and hospital managers.',
].join('\n\n');

const DAY = 86_400_000;

beforeAll(async () => {
  w = await startPostWorld();
  alice = await w.member();
  bob = await w.member();
});
afterAll(async () => {
  await w?.close();
});

async function savedPlan(m: Member, extra: Record<string, unknown> = {}, count = 3) {
  const planned = await w.t.request('POST', '/v1/plan', { key: m.apiKey, body: { brief: BRIEF, count } });
  expect(planned.status, planned.text).toBe(200);
  const saved = await w.t.request('POST', '/v1/plans', {
    key: m.apiKey,
    body: { brief: BRIEF, items: planned.body.items, channelId: m.channelId, ...extra },
  });
  expect(saved.status, saved.text).toBe(201);
  return saved.body.plan;
}

const drafts = (m: Member, id: string, body?: unknown) =>
  w.t.request('POST', `/v1/plans/${id}/drafts`, { key: m.apiKey, body });

describe('turn a saved plan into drafts', () => {
  it("makes one draft per item, of its hook and the brief's facts for it, never the brief pasted", async () => {
    const plan = await savedPlan(alice);
    const res = await drafts(alice, plan.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.made).toBe(3);
    expect(res.body.posts).toHaveLength(3);
    const sentences = readBrief(BRIEF).sentences;
    res.body.posts.forEach((post: any, k: number) => {
      const item = plan.items[k];
      expect(post.status).toBe('draft');
      expect(post.channelId).toBe(alice.channelId);
      expect(post.text.startsWith(item.hook)).toBe(true);
      expect(res.body.plan.items[k].postId).toBe(post.id);
      // Then the item's angle as a marked blank, then sentences of the brief as written; no label.
      const [, blank, ...facts] = post.text.split('\n\n');
      expect(blank).toMatch(/^\[.+\]$/);
      expect(item.angle.startsWith(blank!.slice(1, -1))).toBe(true);
      for (const part of facts) expect(sentences).toContain(part);
      expect(post.text).not.toMatch(/Tone:|Audience:|new nurses and hospital managers/);
      expect(sentences.filter((s) => post.text.includes(s)).length).toBeLessThan(sentences.length);
    });
    // The figures stay whole in whichever draft holds them.
    const all = res.body.posts.map((p: any) => p.text).join('\n');
    if (all.includes('22')) expect(all).toContain('from 22 to 9 minutes');
    const got = await w.t.request('GET', `/v1/plans/${plan.id}`, { key: alice.apiKey });
    expect(got.body.plan).toEqual(res.body.plan);
  });

  it('asking again makes nothing twice, and remakes only a draft that was deleted', async () => {
    const plan = await savedPlan(alice, {}, 2);
    const first = await drafts(alice, plan.id, {});
    expect(first.body.made).toBe(2);
    const again = await drafts(alice, plan.id);
    expect(again.body.made).toBe(0);
    expect(again.body.posts.map((p: any) => p.id)).toEqual(first.body.posts.map((p: any) => p.id));
    const gone = first.body.posts[1].id;
    expect((await w.t.request('DELETE', `/v1/posts/${gone}`, { key: alice.apiKey })).status).toBe(200);
    const third = await drafts(alice, plan.id);
    expect(third.body.made).toBe(1);
    expect(third.body.posts[0].id).toBe(first.body.posts[0].id);
    expect(third.body.posts[1].id).not.toBe(gone);
    expect(third.body.posts[1].text).toBe(first.body.posts[1].text);
  });

  it("schedules each draft on its item's suggested instant; an item without one stays a draft", async () => {
    const planned = await w.t.request('POST', '/v1/plan', {
      key: alice.apiKey,
      body: { brief: BRIEF, count: 2 },
    });
    const at = w.clock.now() + 2 * DAY;
    const items = planned.body.items.map((i: any, k: number) => ({ ...i, when: k === 0 ? at : null }));
    const saved = await w.t.request('POST', '/v1/plans', {
      key: alice.apiKey,
      body: { brief: BRIEF, items, channelId: alice.channelId },
    });
    const res = await drafts(alice, saved.body.plan.id, { schedule: true, slots: [1, 2] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.posts.map((p: any) => [p.status, p.scheduledFor])).toEqual([
      ['scheduled', at],
      ['draft', null],
    ]);
  });

  it('drafts only the slots asked for', async () => {
    const plan = await savedPlan(alice);
    const res = await drafts(alice, plan.id, { slots: [2] });
    expect(res.body.made).toBe(1);
    expect(res.body.plan.items.map((i: any) => i.postId !== null)).toEqual([false, true, false]);
  });

  it("refuses bad requests with a 400 that makes nothing, and another account's plan is a 404", async () => {
    const plan = await savedPlan(alice, { channelId: undefined });
    const before = (await w.t.request('GET', '/v1/posts?limit=100', { key: alice.apiKey })).body.posts.length;
    for (const [body, field] of [
      [{ slots: [9] }, 'slots'],
      [{ schedule: true }, 'channelId'],
      [{ channelId: bob.channelId }, 'channelId'],
      [{ extra: true }, ''],
    ] as const) {
      const res = await drafts(alice, plan.id, body);
      expect(res.status, res.text).toBe(400);
      if (field) expect(JSON.stringify(res.body.error.details)).toContain(field);
    }
    const theirs = await drafts(bob, plan.id);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('not_found');
    const after = (await w.t.request('GET', '/v1/posts?limit=100', { key: alice.apiKey })).body.posts.length;
    expect(after).toBe(before);
    expect((await w.t.request('GET', '/v1/posts?limit=100', { key: bob.apiKey })).body.posts).toEqual([]);
  });
});

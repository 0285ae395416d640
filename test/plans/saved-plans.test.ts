import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Issue 34 item 3: a plan outlives the page. A result of POST /v1/plan is saved with its brief,
 * listed newest first a page at a time, read back as saved, and deleted; another account's plan
 * is a 404 exactly as a plan nobody has, and bad input is a 400 that stores nothing.
 */

let t: TestApp;
let alice: string;
let bob: string;

const BRIEF =
  'Shift handovers and night-shift retention: our ICU cut sepsis response time from 22 to 9 minutes after moving handovers to the bedside.';

beforeAll(async () => {
  t = await startTestApp();
  alice = (await t.signup()).apiKey;
  bob = (await t.signup()).apiKey;
});
afterAll(async () => {
  await t?.close();
});

async function planned(key: string, count = 3) {
  const res = await t.request('POST', '/v1/plan', { key, body: { brief: BRIEF, count } });
  expect(res.status, res.text).toBe(200);
  return res.body.items as Record<string, unknown>[];
}

async function save(key: string, body: Record<string, unknown>) {
  const res = await t.request('POST', '/v1/plans', { key, body });
  expect(res.status, res.text).toBe(201);
  return res.body.plan;
}

describe('saved plans', () => {
  it('stores a plan result with its brief and reads it back as saved', async () => {
    const items = await planned(alice);
    const plan = await save(alice, { brief: BRIEF, items });
    expect(plan.id).toMatch(/^pln_/);
    expect(plan.brief).toBe(BRIEF);
    expect(plan.platform).toBe('platformA');
    expect(plan.channelId).toBeNull();
    // The title is the brief's first words, cut at a word.
    expect(plan.title).toMatch(/^Shift handovers and night-shift retention.*…$/);
    expect(plan.title.length).toBeLessThanOrEqual(61);
    expect(plan.items).toEqual(items.map((i) => ({ ...i, postId: null })));
    const got = await t.request('GET', `/v1/plans/${plan.id}`, { key: alice });
    expect(got.status).toBe(200);
    expect(got.body.plan).toEqual(plan);
  });

  it('keeps a title it is given, and items in slot order', async () => {
    const items = await planned(alice, 2);
    const plan = await save(alice, { title: 'ICU week', brief: BRIEF, items: [...items].reverse() });
    expect(plan.title).toBe('ICU week');
    expect(plan.items.map((i: { slot: number }) => i.slot)).toEqual([1, 2]);
  });

  it('lists newest first, a page at a time', async () => {
    const key = (await t.signup()).apiKey;
    const items = await planned(key, 1);
    const ids: string[] = [];
    for (const title of ['first', 'second', 'third'])
      ids.push((await save(key, { title, brief: BRIEF, items })).id);
    const page1 = await t.request('GET', '/v1/plans?limit=2', { key });
    expect(page1.status).toBe(200);
    expect(page1.body.plans.map((p: { title: string }) => p.title)).toEqual(['third', 'second']);
    expect(page1.body.pagination).toEqual({ limit: 2, offset: 0, hasMore: true });
    const page2 = await t.request('GET', '/v1/plans?limit=2&offset=2', { key });
    expect(page2.body.plans.map((p: { id: string }) => p.id)).toEqual([ids[0]]);
    expect(page2.body.pagination.hasMore).toBe(false);
  });

  it('deletes, and a deleted plan is gone', async () => {
    const plan = await save(alice, { brief: BRIEF, items: await planned(alice, 1) });
    const del = await t.request('DELETE', `/v1/plans/${plan.id}`, { key: alice });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: true });
    expect((await t.request('GET', `/v1/plans/${plan.id}`, { key: alice })).status).toBe(404);
    expect((await t.request('DELETE', `/v1/plans/${plan.id}`, { key: alice })).status).toBe(404);
  });

  it("answers another account's plan exactly as a plan nobody has, and lists only the caller's", async () => {
    const plan = await save(alice, { brief: BRIEF, items: await planned(alice, 1) });
    for (const method of ['GET', 'DELETE']) {
      const theirs = await t.request(method, `/v1/plans/${plan.id}`, { key: bob });
      const nobodys = await t.request(method, '/v1/plans/pln_00000000000000000000', { key: bob });
      expect(theirs.status).toBe(404);
      expect(theirs.body.error.code).toBe('not_found');
      expect(theirs.body.error.message).toBe(nobodys.body.error.message);
      expect(theirs.text).not.toContain(plan.id);
    }
    const listed = await t.request('GET', '/v1/plans', { key: bob });
    expect(listed.body.plans).toEqual([]);
    expect((await t.request('GET', `/v1/plans/${plan.id}`, { key: alice })).status).toBe(200);
  });

  it('refuses bad input with a 400 naming the field, and stores nothing', async () => {
    const key = (await t.signup()).apiKey;
    const items = await planned(key, 2);
    const bad: [Record<string, unknown>, string][] = [
      [{ brief: '   ', items }, 'brief'],
      [{ brief: BRIEF, items: [] }, 'items'],
      [{ brief: BRIEF, items: [items[0], { ...items[1], slot: items[0]!.slot }] }, 'items'],
      [{ brief: BRIEF, items: [{ ...items[0], format: 'hologram' }] }, 'items'],
      [{ brief: BRIEF, items, channelId: 'chn_00000000000000000000' }, 'channelId'],
      [{ brief: BRIEF, items, postId: 'pst_1' }, ''],
    ];
    for (const [body, field] of bad) {
      const res = await t.request('POST', '/v1/plans', { key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      if (field) expect(JSON.stringify(res.body.error.details), res.text).toContain(field);
    }
    expect((await t.request('GET', '/v1/plans', { key })).body.plans).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Issue 34 item 2: a plan from the author's own results. A history where posts on shift
 * handovers earn about three times the rest and Tuesdays 09:00-12:00 UTC do best: every item of
 * the plan carries evidence with the author's figures, the handover pillar comes first, and the
 * suggested instants fall in the best window. Without a history, each item says it rests on
 * published figures and suggests no time.
 */

let t: TestApp;
let withHistory: string;
let without: string;

const DAY = 86_400_000;
/** A Tuesday, 10:00 UTC. */
const TUESDAY_10 = Date.UTC(2026, 8, 1, 10);

function history() {
  const items = [];
  for (let k = 0; k < 30; k++) {
    const handover = k % 2 === 0;
    const tuesday = k % 3 === 0;
    const at = tuesday ? TUESDAY_10 - k * 7 * DAY : TUESDAY_10 - k * 7 * DAY + 2 * DAY + 6 * 3_600_000;
    items.push({
      text: handover
        ? `Night ${k}: what our shift handovers at the bedside changed for the ICU team.`
        : `Week ${k}: notes from the hospital staffing meeting and the rota.`,
      platform: 'platformA',
      publishedAt: at,
      media: handover ? 'document' : 'none',
      reactions: (handover ? 90 : 30) + (tuesday ? 40 : 0) + (k % 5),
      comments: 5,
      shares: 1,
    });
  }
  return { items };
}

const BRIEF =
  'Shift handovers and night-shift retention: our ICU cut sepsis response time from 22 to 9 minutes after moving handovers to the bedside.';

beforeAll(async () => {
  t = await startTestApp();
  withHistory = (await t.signup()).apiKey;
  without = (await t.signup()).apiKey;
  const res = await t.request('POST', '/v1/history', { key: withHistory, body: history() });
  expect(res.status, res.text).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

interface Item {
  slot: number;
  pillar: string;
  hook: string;
  format: string;
  evidence: string | null;
  when: number | null;
}

describe('POST /v1/plan from the author history', () => {
  it('carries the author figures on every item and suggests the author best window', async () => {
    const res = await t.request('POST', '/v1/plan', { key: withHistory, body: { brief: BRIEF, count: 4 } });
    expect(res.status, res.text).toBe(200);
    const items = res.body.items as Item[];
    expect(items).toHaveLength(4);
    expect(items.map((i) => i.slot)).toEqual([1, 2, 3, 4]);
    for (const i of items) {
      expect(i.evidence, JSON.stringify(i)).toMatch(/\d\.\dx your median/);
      expect(i.evidence).not.toMatch(/published figures/);
      expect(i.when).not.toBeNull();
      const at = new Date(i.when!);
      // Tuesday, 09:00-12:00 UTC: the window whose posts earned most.
      expect(at.getUTCDay()).toBe(2);
      expect(at.getUTCHours()).toBeGreaterThanOrEqual(9);
      expect(at.getUTCHours()).toBeLessThan(12);
      expect(i.evidence).toContain('Tuesday 09:00-12:00 UTC is one of your best windows');
    }
    // Suggested in time order, in the future.
    const whens = items.map((i) => i.when!);
    expect(whens).toEqual([...whens].sort((a, b) => a - b));
    expect(whens[0]).toBeGreaterThan(Date.now() - DAY);
    // The pillar the author's posts did best on leads, with its figure.
    const handover = items.find((i) => /handover/i.test(i.pillar));
    expect(handover, JSON.stringify(items.map((i) => i.pillar))).toBeDefined();
    expect(items[0]!.pillar).toBe(handover!.pillar);
    expect(handover!.evidence).toMatch(
      /^Your 15 posts that mention “handovers” earned \d\.\dx your median\./,
    );
  });

  it('without a history says it rests on published figures and suggests no time', async () => {
    const res = await t.request('POST', '/v1/plan', { key: without, body: { brief: BRIEF, count: 3 } });
    expect(res.status).toBe(200);
    for (const i of res.body.items as Item[]) {
      expect(i.evidence).toMatch(/published figures/);
      expect(i.when).toBeNull();
    }
  });

  it('reads another account history never: the same brief plans alike for both without one', async () => {
    const other = (await t.signup()).apiKey;
    const res = await t.request('POST', '/v1/plan', { key: other, body: { brief: BRIEF, count: 3 } });
    for (const i of res.body.items as Item[]) expect(i.evidence).toMatch(/published figures/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftCheck } from '../../src/domain/enums.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { type FakeModel, modelAppEnv, startFakeModel } from './fake-model.ts';

/**
 * Issue 34 item 4 for plans: a language model's plan is held to the checks on the brief. The fake
 * model server on loopback returns plans that break one check each, twice (the answer and its one
 * retry): the offline plan answers, and `writtenBy` names the check. A plan that passes is the
 * model's own, and the count of posts asked for is no figure the plan must repeat.
 */

let fake: FakeModel;
let t: TestApp;
let key: string;
let n = 0;

const BRIEF =
  'Plan 3 posts: night-shift handovers at St Mary went from 22 to 9 minutes. Nurses now hand over at the bedside with a written checklist.';

interface Item {
  pillar: string;
  hook: string;
  angle: string;
  format: string;
  archetype: string;
}
const GOOD: Item[] = [
  {
    pillar: 'Handovers',
    hook: 'Night-shift handovers at St Mary went from 22 to 9 minutes.',
    angle: 'What changed on the night shift, told in order.',
    format: 'none',
    archetype: 'pure-number',
  },
  {
    pillar: 'Checklists',
    hook: 'The checklist nurses read at the bedside.',
    angle: 'Walk through the written checklist, line by line.',
    format: 'document',
    archetype: 'statement',
  },
  {
    pillar: 'Handovers',
    hook: 'What would you put on a handover checklist?',
    angle: 'Ask other night-shift nurses what they check first.',
    format: 'poll',
    archetype: 'question',
  },
];
const edit = (i: number, change: Partial<Item>) =>
  GOOD.map((item, j) => (j === i ? { ...item, ...change } : item));

async function plan(replies: Item[][]) {
  for (const items of replies) fake.next('plan', () => ({ kind: 'json', value: { items } }));
  const before = fake.callsFor('plan');
  const res = await t.request('POST', '/v1/plan', {
    key,
    body: { brief: BRIEF, count: 3, authorName: `Nurse ${++n}` },
  });
  const calls = fake.calls.filter((c) => c.task === 'plan').slice(before);
  return { res, calls: calls.length, retry: calls[1] ? JSON.stringify(calls[1].request.messages) : '' };
}

beforeAll(async () => {
  fake = await startFakeModel();
  t = await startTestApp(modelAppEnv(fake));
  ({ apiKey: key } = await t.signup());
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const BREAKS: { check: DraftCheck; items: Item[]; told: RegExp }[] = [
  { check: 'labels', items: edit(1, { angle: 'Tone: warm and plain.' }), told: /label or instruction/ },
  {
    check: 'numbers',
    items: edit(0, { hook: 'Night-shift handovers at St Mary got much shorter: 22 minutes before.' }),
    told: /left out a number the brief gives \(9\)/,
  },
  {
    check: 'names',
    items: edit(0, { hook: 'Night-shift handovers went from 22 to 9 minutes.' }),
    told: /left out names the brief gives \(St, Mary\)/,
  },
  {
    check: 'invented',
    items: edit(2, { hook: '5 things to put on a handover checklist.' }),
    told: /added a number or link the brief does not give \(5\)/,
  },
  {
    check: 'ai_tells',
    items: edit(1, { angle: 'Delve into the written checklist, line by line.' }),
    told: /reads as machine-written \(delve\)/,
  },
  {
    check: 'blanks',
    items: edit(2, { angle: 'Share [the result, with its number] from the ward.' }),
    told: /left a blank/,
  },
];

describe('model plans pass the checks on the brief, or the offline plan answers', () => {
  for (const { check, items, told } of BREAKS) {
    it(`a plan that breaks "${check}" twice is replaced by the offline plan, which says so`, async () => {
      const r = await plan([items, items]);
      expect(r.res.status, r.res.text).toBe(200);
      expect(r.calls).toBe(2);
      expect(r.retry).toContain('previous answer was rejected');
      expect(r.res.body.writtenBy.engine).toBe('offline');
      expect(r.res.body.writtenBy.failedCheck).toBe(check);
      expect(r.res.body.writtenBy.note).toMatch(/^Planned by the offline engine: the language model's plan /);
      expect(r.res.body.writtenBy.note).toMatch(told);
      const hooks = r.res.body.items.map((i: Item) => i.hook);
      expect(hooks).not.toEqual(items.map((i) => i.hook));
      expect(r.res.body.items).toHaveLength(3);
    });
  }

  it('a plan that passes is the model’s own, in one call; the requested count is no figure to keep', async () => {
    const r = await plan([GOOD]);
    expect(r.res.status).toBe(200);
    expect(r.calls).toBe(1);
    expect(r.res.body.writtenBy).toEqual({
      engine: 'model',
      failedCheck: null,
      note: 'Planned by the language model.',
    });
    expect(r.res.body.items.map((i: Item) => i.hook)).toEqual(GOOD.map((i) => i.hook));
  });

  it('a plan fixed on its retry is the model’s', async () => {
    const r = await plan([edit(1, { angle: 'Tone: warm and plain.' }), GOOD]);
    expect(r.calls).toBe(2);
    expect(r.retry).toContain('item 2: it repeats the brief');
    expect(r.res.body.writtenBy.engine).toBe('model');
  });

  it('a plan of the wrong size twice is still a 502: there is no plan of the shape asked for', async () => {
    const r = await plan([GOOD.slice(0, 2), GOOD.slice(0, 1)]);
    expect(r.res.status).toBe(502);
    expect(r.res.body.error.code).toBe('model_error');
  });

  it('without a model configured the plan says the offline engine made it', async () => {
    const offline = await startTestApp();
    try {
      const { apiKey } = await offline.signup();
      const res = await offline.request('POST', '/v1/plan', {
        key: apiKey,
        body: { brief: BRIEF, count: 3 },
      });
      expect(res.status).toBe(200);
      expect(res.body.writtenBy).toMatchObject({ engine: 'offline', failedCheck: null });
      expect(res.body.writtenBy.note).toMatch(/no language model is configured/);
    } finally {
      await offline.close();
    }
  });
});

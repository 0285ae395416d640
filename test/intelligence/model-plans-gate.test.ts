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

async function plan(replies: Item[][], brandId?: string) {
  for (const items of replies) fake.next('plan', () => ({ kind: 'json', value: { items } }));
  const before = fake.callsFor('plan');
  const res = await t.request('POST', '/v1/plan', {
    key,
    // A letter, not a number, tells the authors apart: the author is a source of facts ("Nurse 5" gives 5).
    body: {
      brief: BRIEF,
      count: 3,
      authorName: `Nurse ${String.fromCharCode(65 + n++)}`,
      ...(brandId ? { brandId } : {}),
    },
  });
  const calls = fake.calls.filter((c) => c.task === 'plan').slice(before);
  const said = (k: number) => (calls[k] ? JSON.stringify(calls[k].request.messages) : '');
  return { res, calls: calls.length, prompt: said(0), retry: said(1) };
}

/** The plan a model makes when a brand's themes replace the brief: its figures and names kept, its topics gone. */
const BRANDED: Item[] = [
  {
    pillar: 'Burnout prevention',
    hook: 'At St Mary, burnout prevention took a night shift from 22 to 9 minutes.',
    angle: 'What burnout prevention looks like on nights.',
    format: 'none',
    archetype: 'pure-number',
  },
  {
    pillar: 'Hiring',
    hook: 'Hiring nurses for nights is the hard part.',
    angle: 'Say what you look for when you hire for nights.',
    format: 'document',
    archetype: 'statement',
  },
  {
    pillar: 'Burnout prevention',
    hook: 'What keeps you going on a night shift?',
    angle: 'Ask nurses what protects them from burnout.',
    format: 'poll',
    archetype: 'question',
  },
];

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
    check: 'topics',
    items: [
      GOOD[0]!,
      {
        ...GOOD[1]!,
        pillar: 'Teamwork',
        hook: 'The list nurses read at the bedside.',
        angle: 'Walk through it.',
      },
      { ...GOOD[2]!, hook: 'What would you put on a handover list?' },
    ],
    told: /left out a topic the brief gives \(Written checklist\)/,
  },
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

  describe("with a brand, the brand's themes add to the brief's topics, never replace them", () => {
    let brandId: string;
    beforeAll(async () => {
      const res = await t.request('POST', '/v1/brands', {
        key,
        body: { name: 'Ward', themes: ['Burnout prevention', 'Hiring'] },
      });
      brandId = res.body.brand.id;
    });

    it("tells the model the brief's topics and the brand's themes apart", async () => {
      const r = await plan([GOOD.map((i, k) => (k === 1 ? { ...i, pillar: 'Hiring' } : i))], brandId);
      expect(r.prompt).toContain(
        "The brief's own topics (Night-shift handovers | St Mary | Written checklist) stay in the plan",
      );
      expect(r.prompt).toContain("brand's themes (Burnout prevention | Hiring) add to them");
      expect(r.prompt).not.toContain('Use only these pillars');
      expect(r.res.body.writtenBy.engine).toBe('model');
      expect(r.res.body.items.map((i: Item) => i.pillar)).toEqual(['Handovers', 'Hiring', 'Handovers']);
    });

    it("a plan whose brand themes replace the brief's topics is retried with the reason, then the offline plan keeps both", async () => {
      const r = await plan([BRANDED, BRANDED], brandId);
      expect(r.calls).toBe(2);
      expect(r.retry).toContain(
        "the plan leaves out the brief's topics Night-shift handovers, Written checklist",
      );
      expect(r.res.body.writtenBy).toMatchObject({ engine: 'offline', failedCheck: 'topics' });
      expect(r.res.body.writtenBy.note).toMatch(
        /the language model's plan left out topics the brief gives \(Night-shift handovers, Written checklist\), even after one retry/,
      );
      const pillars = r.res.body.items.map((i: Item) => i.pillar);
      expect(pillars).toContain('Night-shift handovers');
      expect(pillars.some((p: string) => ['Burnout prevention', 'Hiring'].includes(p))).toBe(true);
    });

    it('a plan on the brand that also drops a figure of the brief fails on the figure first', async () => {
      const dropped = BRANDED.map((i, k) => (k === 0 ? { ...i, hook: 'Burnout prevention at St Mary.' } : i));
      const r = await plan([dropped, dropped], brandId);
      expect(r.retry).toMatch(/the plan drops the brief's figures 22, 9/);
      expect(r.retry).toContain("leaves out the brief's topics");
      expect(r.res.body.writtenBy.failedCheck).toBe('numbers');
    });

    it("a plan naming none of the brand's themes is retried, and its fix is the model's", async () => {
      const r = await plan([GOOD, GOOD.map((i, k) => (k === 1 ? { ...i, pillar: 'Hiring' } : i))], brandId);
      expect(r.calls).toBe(2);
      expect(r.retry).toContain("the plan names none of the brand's themes Burnout prevention, Hiring");
      expect(r.res.body.writtenBy.engine).toBe('model');
    });
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

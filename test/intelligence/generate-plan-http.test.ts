import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelUsage } from '../../src/db/schema/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let key: string;
let accountId: string;
let otherKey: string;

const used = async () =>
  (await t.service.deps.db.select().from(modelUsage).where(eq(modelUsage.accountId, accountId))).reduce(
    (s, r) => s + r.count,
    0,
  );

beforeAll(async () => {
  t = await startTestApp();
  ({ apiKey: key, accountId } = await t.signup());
  otherKey = (await t.signup()).apiKey;
});
afterAll(async () => {
  await t?.close();
});

const BRIEF =
  'Why we moved every invoice to the first of the month. Late payments dropped 30% after the switch. Support tickets about billing got shorter.';

describe('POST /v1/generate', () => {
  it('returns 1-3 candidates, each scored by the same scorer, best first', async () => {
    const res = await t.request('POST', '/v1/generate', {
      key,
      body: { brief: BRIEF, count: 3, media: 'document' },
    });
    expect(res.status).toBe(200);
    const { candidates } = res.body;
    expect(candidates).toHaveLength(3);
    const overall = candidates.map((c: { score: { overall: number } }) => c.score.overall);
    expect(overall).toEqual([...overall].sort((a, b) => b - a));
    for (const c of candidates) {
      const scored = await t.request('POST', '/v1/score', {
        key,
        body: { post: c.post, platform: 'platformA', media: 'document' },
      });
      expect(c.score).toEqual(scored.body);
    }
    const one = await t.request('POST', '/v1/generate', { key, body: { brief: BRIEF } });
    expect(one.body.candidates).toHaveLength(1);
  });

  it('is conditioned by brand and voice, and the cache follows their edits', async () => {
    const brand = (
      await t.request('POST', '/v1/brands', {
        key,
        body: { name: 'Acme', audience: 'Clinic managers', themes: ['Billing ops', 'Cash flow'] },
      })
    ).body.brand;
    const plain = await t.request('POST', '/v1/generate', { key, body: { brief: BRIEF, brandId: brand.id } });
    expect(plain.body.candidates[0].post).toContain('#BillingOps');
    // The brand's audience is context for the writer, never a sentence of the post.
    expect(plain.body.candidates[0].post).not.toMatch(/clinic managers/i);
    const voice = (
      await t.request('POST', '/v1/voices', { key, body: { name: 'Quiet', doNot: ['Do not add hashtags.'] } })
    ).body.voice;
    const quiet = await t.request('POST', '/v1/generate', {
      key,
      body: { brief: BRIEF, brandId: brand.id, voiceId: voice.id },
    });
    expect(quiet.body.candidates[0].post).not.toContain('#');

    const before = await used();
    await t.request('POST', '/v1/generate', { key, body: { brief: BRIEF, brandId: brand.id } });
    expect(await used()).toBe(before);
    await t.request('PATCH', `/v1/brands/${brand.id}`, { key, body: { themes: ['Receivables'] } });
    const edited = await t.request('POST', '/v1/generate', {
      key,
      body: { brief: BRIEF, brandId: brand.id },
    });
    expect(edited.body.candidates[0].post).toContain('#Receivables');
    expect(await used()).toBe(before + 1);
  });

  it('answers 400 naming the field for another account’s brand or voice without charging, and 400 for bad input', async () => {
    const theirBrand = (await t.request('POST', '/v1/brands', { key: otherKey, body: { name: 'Theirs' } }))
      .body.brand;
    const theirVoice = (await t.request('POST', '/v1/voices', { key: otherKey, body: { name: 'Theirs' } }))
      .body.voice;
    const before = await used();
    for (const body of [
      { brief: BRIEF, brandId: theirBrand.id },
      { brief: BRIEF, voiceId: theirVoice.id },
      { brief: BRIEF, brandId: 'brd_doesnotexist' },
    ]) {
      const res = await t.request('POST', '/v1/generate', { key, body });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].path).toBe(body.brandId ? 'brandId' : 'voiceId');
      const plan = await t.request('POST', '/v1/plan', { key, body });
      expect(plan.status).toBe(400);
      expect(plan.body.error.details[0].path).toBe(body.brandId ? 'brandId' : 'voiceId');
    }
    expect(await used()).toBe(before);
    for (const body of [
      {},
      { brief: '' },
      { brief: BRIEF, count: 4 },
      { brief: BRIEF, count: 0 },
      { brief: BRIEF, archetype: 'rant' },
    ]) {
      expect((await t.request('POST', '/v1/generate', { key, body })).status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('POST /v1/plan', () => {
  it('plans 1-14 items, brand themes as pillars, following the cadence', async () => {
    const brand = (
      await t.request('POST', '/v1/brands', {
        key,
        body: { name: 'Plan Co', themes: ['Hiring', 'Pricing', 'Culture'] },
      })
    ).body.brand;
    const res = await t.request('POST', '/v1/plan', {
      key,
      body: { brief: 'Q3 content push', count: 10, cadence: 'weekdays', brandId: brand.id },
    });
    expect(res.status).toBe(200);
    const { items } = res.body;
    expect(items).toHaveLength(10);
    expect(items.map((i: { slot: number }) => i.slot)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // The brand's themes add to the brief's topic (content pillars about "Q3 content push").
    expect(new Set(items.map((i: { pillar: string }) => i.pillar))).toEqual(
      new Set([
        'Hiring',
        'Pricing',
        'Culture',
        'Lessons learned',
        'Behind the scenes',
        'Results so far',
        'Industry view',
      ]),
    );
    expect(items.map((i: { angle: string }) => i.angle.slice(0, 3))).toEqual([
      'Mon',
      'Tue',
      'Wed',
      'Thu',
      'Fri',
      'Mon',
      'Tue',
      'Wed',
      'Thu',
      'Fri',
    ]);
    for (const i of items) {
      expect(Object.keys(i).sort()).toEqual([
        'angle',
        'archetype',
        'evidence',
        'format',
        'hook',
        'pillar',
        'slot',
        'when',
      ]);
    }
    const dflt = await t.request('POST', '/v1/plan', {
      key,
      body: { brief: 'pricing, hiring', platform: 'platformB' },
    });
    expect(dflt.body.items).toHaveLength(5);
    expect(dflt.body.items.some((i: { format: string }) => i.format === 'document')).toBe(false);
    for (const count of [0, 15]) {
      expect((await t.request('POST', '/v1/plan', { key, body: { brief: 'x', count } })).status).toBe(400);
    }
    expect(
      (await t.request('POST', '/v1/plan', { key, body: { brief: 'x', cadence: 'hourly' } })).status,
    ).toBe(400);
  });
});

describe('offline plan and generate over HTTP (issue 12 section 2)', () => {
  it('plans 3 distinct slots from the brief’s themes and says the offline engine made them', async () => {
    const res = await t.request('POST', '/v1/plan', {
      key,
      body: { brief: BRIEF, count: 3, cadence: '3x-week' },
    });
    expect(res.status).toBe(200);
    const { items, engine } = res.body;
    expect(engine).toMatchObject({ id: 'heuristic', offline: true });
    expect(new Set(items.map((i: { hook: string }) => i.hook)).size).toBe(3);
    expect(new Set(items.map((i: { format: string }) => i.format)).size).toBe(3);
    expect(items.map((i: { pillar: string }) => i.pillar)).toEqual([
      'Late payments',
      'Support tickets',
      'Invoice',
    ]);
    for (const i of items) {
      expect(i.angle).not.toContain(BRIEF.slice(0, 60));
      expect(i.angle).not.toMatch(/\)\.?$/);
    }
    expect(items.map((i: { angle: string }) => i.angle.slice(0, 3))).toEqual(['Mon', 'Wed', 'Fri']);
  });

  it('generates candidates of different shapes from the brief, each scored with the engine named', async () => {
    const res = await t.request('POST', '/v1/generate', { key, body: { brief: BRIEF, count: 3 } });
    const { candidates, engine } = res.body;
    expect(engine.offline).toBe(true);
    // The story in order, the result first, the list: three openings or layouts.
    const shapes = candidates.map((c: { post: string }) => `${c.post.split('\n')[0]}|${/^- /m.test(c.post)}`);
    expect(new Set(shapes).size).toBe(3);
    for (const c of candidates) {
      expect(c.post).not.toBe(BRIEF);
      expect(c.post).toContain('Late payments dropped 30% after the switch');
      expect(c.score.engine.offline).toBe(true);
    }
  });
});

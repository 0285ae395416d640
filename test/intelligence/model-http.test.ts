import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelUsage } from '../../src/db/schema/index.ts';
import type { Dimension } from '../../src/domain/enums.ts';
import { DIMENSION_WEIGHTS } from '../../src/scoring/learned/model.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { type FakeModel, fenced, modelAppEnv, startFakeModel } from './fake-model.ts';

let fake: FakeModel;
let t: TestApp;
let key: string;
let accountId: string;
let n = 0;
/** A fresh post per test, so no test sees another's cache entry. */
const post = (extra = '') =>
  `I rebuilt our billing in ${++n} sprints.\n\nThe old flow double-charged customers. Nobody noticed for nine days.\n\nWhat would you check first?${extra}`;

const used = async () =>
  (await t.service.deps.db.select().from(modelUsage).where(eq(modelUsage.accountId, accountId))).reduce(
    (s, r) => s + r.count,
    0,
  );
const weighted = (b: Record<Dimension, number>) =>
  Math.round(
    10 * (Object.keys(DIMENSION_WEIGHTS) as Dimension[]).reduce((s, d) => s + DIMENSION_WEIGHTS[d] * b[d], 0),
  ) / 10;

beforeAll(async () => {
  fake = await startFakeModel();
  // modelAppEnv's timeout is long enough that no answer of the fake server misses it on a
  // loaded machine; the stall test waits it out.
  t = await startTestApp(modelAppEnv(fake));
  ({ apiKey: key, accountId } = await t.signup());
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('model judge', () => {
  it('grades through typed structured output; the service computes overall and keeps the caps', async () => {
    const calls = fake.callsFor('judge');
    const text = post(' https://example.com/x');
    const res = await t.request('POST', '/v1/score', { key, body: { post: text } });
    expect(res.status).toBe(200);
    expect(fake.callsFor('judge')).toBe(calls + 1);
    const sent = fake.calls.at(-1)!.request;
    expect(sent.model).toBe('fake-1');
    expect(sent.response_format?.type).toBe('json_schema');
    const r = res.body;
    expect(r.overall).not.toBe(99);
    expect(r.overall).toBe(weighted(r.breakdown));
    expect(r.breakdown.algorithmFit).toBeLessThanOrEqual(60);
    // The judge's note (fake-model.ts: on a concept the rules leave free) carries no rule name.
    for (const s of r.signals.filter((s: { label: string }) => s.label.startsWith('Model note')))
      expect(s.rule).toBeUndefined();
    expect(r.signals.map((s: { rule?: string }) => s.rule)).toContain('link.external');
    // Cache hit: no second model call, identical body, no quota.
    const spent = await used();
    const again = await t.request('POST', '/v1/score', { key, body: { post: text } });
    expect(again.text).toBe(res.text);
    expect(fake.callsFor('judge')).toBe(calls + 1);
    expect(await used()).toBe(spent);
    const meta = await t.request('GET', '/v1/meta');
    expect(meta.body.capabilities).toMatchObject({
      scoringEngine: 'openai-compatible',
      model: 'fake-1',
      offline: false,
    });
    expect(r.engine).toMatchObject({ id: 'openai-compatible:fake-1', offline: false });
    expect(r.engine.note).not.toMatch(/offline/i);
  });

  it('retries malformed output once and then succeeds', async () => {
    fake.next('judge', () => ({ kind: 'raw', content: '{"scores": "not an object"' }));
    const calls = fake.callsFor('judge');
    const res = await t.request('POST', '/v1/score', { key, body: { post: post() } });
    expect(res.status).toBe(200);
    expect(fake.callsFor('judge')).toBe(calls + 2);
    expect(JSON.stringify(fake.calls.at(-1)!.request.messages)).toContain('previous answer was rejected');
  });

  it('answers 502 model_error after a second malformed answer, and refunds the quota', async () => {
    fake.next('judge', () => ({ kind: 'raw', content: 'I am not JSON' }));
    fake.next('judge', () => ({ kind: 'json', value: { scores: { hook: 500 }, signals: [] } }));
    const before = await used();
    const calls = fake.callsFor('judge');
    const res = await t.request('POST', '/v1/score', { key, body: { post: post() } });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('model_error');
    expect(fake.callsFor('judge')).toBe(calls + 2);
    expect(await used()).toBe(before);
  });

  it('answers 502 on a provider 5xx without retrying or leaking the upstream body', async () => {
    fake.next('judge', () => ({ kind: 'status', status: 503 }));
    const calls = fake.callsFor('judge');
    const res = await t.request('POST', '/v1/score', { key, body: { post: post() } });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('model_error');
    expect(res.body.error.message).toMatch(/503/);
    expect(res.text).not.toContain('fake upstream failure');
    expect(fake.callsFor('judge')).toBe(calls + 1);
  });

  it('answers 502 when the model does not answer in LLM_TIMEOUT_MS', async () => {
    fake.next('judge', () => ({ kind: 'stall' }));
    const res = await t.request('POST', '/v1/score', { key, body: { post: post() } });
    expect(res.status).toBe(502);
    expect(res.body.error.message).toMatch(/5000 ms/);
  });
});

describe('model rewrite, generate, plan and voice', () => {
  it('rewrites with the model and reports before/after exactly as scored', async () => {
    const original = post();
    const res = await t.request('POST', '/v1/rewrite', { key, body: { post: original } });
    expect(res.status).toBe(200);
    expect(res.body.changes).toEqual([
      { dimension: 'structure', note: 'Kept the opening line and cut the rest.' },
    ]);
    const judgeCalls = fake.callsFor('judge');
    const before = await t.request('POST', '/v1/score', { key, body: { post: original } });
    const after = await t.request('POST', '/v1/score', { key, body: { post: res.body.rewrite } });
    expect(res.body.before).toEqual(before.body);
    expect(res.body.after).toEqual(after.body);
    expect(fake.callsFor('judge')).toBe(judgeCalls);
  });

  it('falls back to the deterministic edits when the model keeps inventing facts', async () => {
    const invent = () => ({
      kind: 'json' as const,
      value: {
        rewrite: 'We grew revenue 300% at Initech.',
        changes: [{ dimension: 'specificity', note: 'Added proof.' }],
      },
    });
    fake.next('rewrite', invent);
    fake.next('rewrite', invent);
    const original = `${post()} #a #b #c #d #e #f`;
    const res = await t.request('POST', '/v1/rewrite', { key, body: { post: original } });
    expect(res.status).toBe(200);
    expect(res.body.rewrite).not.toMatch(/300|Initech/);
    expect(res.body.changes[0].note).toMatch(/added facts/);
    expect(res.body.rewrite.match(/#\w/g)).toHaveLength(3);
  });

  it("holds model drafts to the offline checks: a draft pasting the brief's instruction or dropping its numbers is retried, then replaced", async () => {
    const brief = 'Write a post announcing that we cut deploy time from 42 minutes to 6 at Initrode.';
    const drafts = (posts: string[]) => () => ({
      kind: 'json' as const,
      value: { candidates: posts.map((post) => ({ post })) },
    });
    // Pasted instruction, then a lost number: both fail the checks, so the offline drafts answer.
    fake.next('generate', drafts([`${brief}\n\nWhat would you add?`]));
    fake.next('generate', drafts(['We cut deploy time at Initrode.\n\nWhat would you add?']));
    const res = await t.request('POST', '/v1/generate', { key, body: { brief, count: 1 } });
    expect(res.status, res.text).toBe(200);
    const [draft] = res.body.candidates.map((c: { post: string }) => c.post);
    expect(draft).not.toMatch(/Write a post/i);
    for (const n of ['42', '6', 'Initrode']) expect(draft).toContain(n);
    // A draft that passes is the model's own.
    const good =
      'Deploys at Initrode took 42 minutes. Now they take 6.\n\nWhich step would you measure first?';
    fake.next('generate', drafts([good]));
    const ok = await t.request('POST', '/v1/generate', {
      key,
      body: { brief: brief.replace('Write a post announcing that w', 'W'), count: 1 },
    });
    expect(ok.body.candidates[0].post).toBe(good);
  });

  it('generates with the model, scores every candidate and sorts them', async () => {
    const res = await t.request('POST', '/v1/generate', {
      key,
      body: { brief: 'We moved invoices to the first of the month.', count: 3 },
    });
    expect(res.status).toBe(200);
    expect(res.body.candidates).toHaveLength(3);
    const overall = res.body.candidates.map((c: { score: { overall: number } }) => c.score.overall);
    expect(overall).toEqual([...overall].sort((a, b) => b - a));
    fake.next('generate', (_r, prompt) => ({
      kind: 'json',
      value: { candidates: [{ post: `${fenced(prompt)} Revenue grew 47%.` }] },
    }));
    fake.next('generate', (_r, prompt) => ({
      kind: 'json',
      value: { candidates: [{ post: `${fenced(prompt)} Churn fell 12%.` }] },
    }));
    const generateCalls = fake.callsFor('generate');
    const honest = await t.request('POST', '/v1/generate', {
      key,
      body: { brief: 'We changed our invoicing day.' },
    });
    expect(honest.status).toBe(200);
    expect(fake.callsFor('generate')).toBe(generateCalls + 2);
    expect(honest.body.candidates[0].post).not.toMatch(/47|12/);
  });

  it('plans on a brand’s themes in the brand’s spelling, on the cadence; a plan naming none of them is retried', async () => {
    const brand = (
      await t.request('POST', '/v1/brands', { key, body: { name: 'M', themes: ['Billing', 'Hiring'] } })
    ).body.brand;
    fake.next('plan', () => ({
      kind: 'json',
      value: {
        items: [1, 2, 3].map(() => ({
          pillar: 'Random',
          hook: 'h',
          angle: 'a',
          format: 'none',
          archetype: 'story',
        })),
      },
    }));
    const calls = fake.callsFor('plan');
    const res = await t.request('POST', '/v1/plan', {
      key,
      body: { brief: 'autumn series', count: 3, cadence: '3x-week', brandId: brand.id },
    });
    expect(res.status).toBe(200);
    expect(fake.callsFor('plan')).toBe(calls + 2);
    // The label brief's content pillars alternate with the brand's themes; a brand theme takes the brand's spelling.
    expect(res.body.items.map((i: { pillar: string }) => i.pillar)).toEqual([
      'LESSONS LEARNED',
      'Billing',
      'BEHIND THE SCENES',
    ]);
    expect(res.body.items.map((i: { angle: string }) => i.angle)).toEqual([
      'Mon, week 1: Angle one',
      'Wed, week 1: Angle two',
      'Fri, week 1: Angle three',
    ]);
    expect(res.body.writtenBy).toEqual({
      engine: 'model',
      failedCheck: null,
      note: 'Planned by the language model.',
    });
  });

  it('distils a voice with the model; exemplars must be verbatim', async () => {
    const samples = ['Ship small.\nShip often.', 'Write it down.\nThen decide.'];
    const res = await t.request('POST', '/v1/voices/build', { key, body: { name: 'Model voice', samples } });
    expect(res.status).toBe(201);
    expect(res.body.voice).toMatchObject({
      traits: ['Model trait: short declarative lines'],
      doNot: ['Model rule: no hashtags'],
      exemplars: ['Ship small.'],
    });
    const made = () => ({
      kind: 'json' as const,
      value: { traits: ['t'], doNot: [], exemplars: ['Never said this.'] },
    });
    fake.next('voice', made);
    fake.next('voice', made);
    const before = await used();
    const bad = await t.request('POST', '/v1/voices', {
      key,
      body: { name: 'x', samples: ['Other sample.'] },
    });
    expect(bad.status).toBe(502);
    expect(await used()).toBe(before);
    expect((await t.request('GET', '/v1/voices', { key })).body.voices).toHaveLength(1);
  });
});

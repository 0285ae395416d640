import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelUsage } from '../../src/db/schema/index.ts';
import type { Dimension } from '../../src/domain/enums.ts';
import { DIMENSION_WEIGHTS } from '../../src/scoring/learned/model.ts';
import { inventedFacts } from '../../src/scoring/text/facts.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const POST = `In today's fast-paced world, we must delve into onboarding.

Our team cut setup time from 40 minutes to 6 at Acme by removing the config wizard and shipping sane defaults instead, which surprised everyone who had defended the wizard for years. The wizard had 14 screens.

Read the case study here: https://example.com/case

#saas #onboarding #product #growth #startups #ux`;

let t: TestApp;
let key: string;
let accountId: string;

async function used(account = accountId): Promise<number> {
  const rows = await t.service.deps.db.select().from(modelUsage).where(eq(modelUsage.accountId, account));
  return rows.reduce((s, r) => s + r.count, 0);
}

const weighted = (b: Record<Dimension, number>) =>
  Math.round(
    10 * (Object.keys(DIMENSION_WEIGHTS) as Dimension[]).reduce((s, d) => s + DIMENSION_WEIGHTS[d] * b[d], 0),
  ) / 10;

beforeAll(async () => {
  t = await startTestApp();
  ({ apiKey: key, accountId } = await t.signup());
});
afterAll(async () => {
  await t?.close();
});

describe('POST /v1/score (offline engine)', () => {
  it('scores with the contract shape, caps and the model budget headers', async () => {
    const res = await t.request('POST', '/v1/score', {
      key,
      body: { post: POST, media: 'document', dayOfWeek: 2 },
    });
    expect(res.status).toBe(200);
    const r = res.body;
    expect(Object.keys(r).sort()).toEqual(
      [
        'breakdown',
        'engine',
        'formatMultiplier',
        'formatNote',
        'hookArchetype',
        'hookArchetypeNote',
        'overall',
        'schema',
        'signals',
        'verdict',
      ].sort(),
    );
    expect(r.overall).toBe(weighted(r.breakdown));
    expect(r.breakdown.algorithmFit).toBeLessThanOrEqual(60);
    const rules = r.signals.map((s: { rule?: string }) => s.rule);
    expect(rules).toEqual(expect.arrayContaining(['link.external', 'hashtags.excess']));
    // One signal per concept, each pointing into the post it was sent.
    const concepts = r.signals.map((s: { concept: string }) => s.concept);
    expect(concepts).toEqual(expect.arrayContaining(['links', 'hashtags', 'generic', 'timing']));
    expect(new Set(concepts).size).toBe(concepts.length);
    for (const s of r.signals as { spans: { start: number; end: number }[] }[])
      for (const span of s.spans) expect(span.end).toBeLessThanOrEqual(POST.length);
    expect(r.formatMultiplier).toBe(1.6);
    expect(res.headers.get('x-ratelimit-llm-limit')).toBe('100000');
    // Offline, the response and /v1/meta say so, and say how to configure a model.
    expect(r.engine).toMatchObject({ id: 'heuristic', offline: true });
    expect(r.engine.note).toMatch(/^Offline engine: no language model is configured\./);
    expect(r.engine.note).toContain('LLM_PROVIDER');
    const meta = await t.request('GET', '/v1/meta');
    expect(meta.body.capabilities).toMatchObject({
      scoringEngine: 'heuristic',
      model: null,
      offline: true,
      engineNote: r.engine.note,
    });
  });

  it('charges one operation per new input; a cache hit is free and identical', async () => {
    const before = await used();
    const body = { post: `${POST}\n\nVariant for caching.` };
    const first = await t.request('POST', '/v1/score', { key, body });
    expect(await used()).toBe(before + 1);
    // Same input after normalisation (CRLF, trailing spaces): a hit.
    const again = await t.request('POST', '/v1/score', {
      key,
      body: { post: `${body.post.replace(/\n/g, '\r\n')}   `, platform: 'platformA' },
    });
    // The same result, its spans moved into the text as sent: they mark the same words.
    type Scored = { signals: { spans: { start: number; end: number }[] }[] };
    const marked = (res: { body: unknown }, post: string) =>
      (res.body as Scored).signals.map((sig) =>
        sig.spans.map((sp) => post.slice(sp.start, sp.end).replaceAll('\r', '')),
      );
    const withoutSpans = (res: { body: unknown }) =>
      JSON.stringify({
        ...(res.body as Scored),
        signals: (res.body as Scored).signals.map((sig) => ({ ...sig, spans: [] })),
      });
    expect(withoutSpans(again)).toBe(withoutSpans(first));
    expect(marked(again, `${body.post.replace(/\n/g, '\r\n')}   `)).toEqual(marked(first, body.post));
    expect(await used()).toBe(before + 1);
    // Another context is another input.
    await t.request('POST', '/v1/score', { key, body: { ...body, hourLocal: 8 } });
    expect(await used()).toBe(before + 2);
  });

  it('replays an Idempotency-Key without running again', async () => {
    const headers = { 'idempotency-key': 'score-once-1' };
    const body = { post: 'Idempotent scoring check. It has two sentences.' };
    const a = await t.request('POST', '/v1/score', { key, body, headers });
    const count = await used();
    const b = await t.request('POST', '/v1/score', { key, body, headers });
    expect(b.status).toBe(200);
    expect(b.headers.get('idempotent-replay')).toBe('true');
    expect(b.text).toBe(a.text);
    expect(await used()).toBe(count);
    const reused = await t.request('POST', '/v1/score', { key, body: { post: 'different' }, headers });
    expect(reused.status).toBe(422);
  });

  it('rejects bad input with 400 and a missing key with 401', async () => {
    for (const body of [
      {},
      { post: '   ' },
      { post: 'x', platform: 'platformC' },
      { post: 'x', media: 'gif' },
      { post: 'x', dayOfWeek: 7 },
      { post: 'x', hourLocal: 24 },
      { post: 'x', hashtagCount: -1 },
      { post: 'x', unknownField: true },
      { post: 42 },
    ]) {
      const res = await t.request('POST', '/v1/score', { key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
    expect((await t.request('POST', '/v1/score', { body: { post: 'x' } })).status).toBe(401);
  });
});

describe('POST /v1/rewrite (offline engine)', () => {
  it('reports before and after exactly as scoring returns them, inventing nothing', async () => {
    const res = await t.request('POST', '/v1/rewrite', { key, body: { post: POST, media: 'none' } });
    expect(res.status).toBe(200);
    const { rewrite, changes, before, after } = res.body;
    expect(inventedFacts(POST, rewrite)).toEqual([]);
    expect(rewrite).not.toContain('https://');
    expect(changes.length).toBeGreaterThan(0);
    const scoredOriginal = await t.request('POST', '/v1/score', { key, body: { post: POST, media: 'none' } });
    expect(before).toEqual(scoredOriginal.body);
    const scoredRewrite = await t.request('POST', '/v1/score', {
      key,
      body: { post: rewrite, media: 'none' },
    });
    expect(after).toEqual(scoredRewrite.body);
    expect(after.overall).toBeGreaterThan(before.overall);
  });

  it('returns an already clean post unchanged with its honest scores', async () => {
    const clean =
      'I rewrote our onboarding last month.\n\nSetup went from 40 minutes to 6.\n\nWhat would you cut first?';
    const res = await t.request('POST', '/v1/rewrite', { key, body: { post: clean } });
    expect(res.body.rewrite).toBe(clean);
    expect(res.body.changes).toEqual([]);
    expect(res.body.after).toEqual(res.body.before);
  });
});

describe('quota', () => {
  it('answers 402 once the monthly quota is spent; cache hits still work', async () => {
    const small = await startTestApp({ FREE_PLAN_MODEL_QUOTA: '2' });
    try {
      const { apiKey } = await small.signup();
      const score = (post: string) => small.request('POST', '/v1/score', { key: apiKey, body: { post } });
      expect((await score('First post to score.')).status).toBe(200);
      expect((await score('Second post to score.')).status).toBe(200);
      const over = await score('Third post to score.');
      expect(over.status).toBe(402);
      expect(over.body.error.code).toBe('quota_exceeded');
      expect((await score('First post to score.')).status).toBe(200);
      const plan = await small.request('POST', '/v1/plan', { key: apiKey, body: { brief: 'pricing' } });
      expect(plan.status).toBe(402);
    } finally {
      await small.close();
    }
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalModels } from '../../src/db/schema/index.ts';
import { FIT_LEASE_MS } from '../../src/features/history/personal-models.ts';
import { testClock } from '../channels/helpers.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { callOk, connectClient } from '../mcp/helpers.ts';

const clock = testClock();
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({}, { clock });
});
afterAll(async () => {
  await t?.close();
});

const TOPICS = [
  'hiring',
  'pricing',
  'onboarding',
  'churn',
  'roadmaps',
  'support',
  'sales calls',
  'our first office',
  'fundraising',
  'retention',
];

/** An author whose posts opening on a figure do four times better than the rest. */
function history(n: number, offset = 0) {
  return Array.from({ length: n }, (_, k) => {
    const i = k + offset;
    const topic = TOPICS[i % TOPICS.length]!;
    const figure = i % 2 === 0;
    const opening = figure
      ? `${12 + i}% of our ${topic} work changed after one small test.`
      : `A few thoughts about ${topic} after this week.`;
    return {
      text: `${opening}\n\nWe tried something different with ${topic} in week ${i}. It took longer than planned and taught us more than expected.\n\nWhat would you have done?`,
      reactions: (figure ? 200 : 50) + ((i * 37) % 23),
      comments: (i * 7) % 5,
      publishedAt: Date.UTC(2025, 0, 1) + i * 86_400_000,
    };
  });
}

const DRAFT = '38% of our pricing pages confused buyers.\n\nWe rewrote them in a week. Here is what changed.';

async function score(key: string, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/v1/score', { key, body: { post: DRAFT, ...body } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function importItems(key: string, items: unknown[]) {
  const res = await t.request('POST', '/v1/history', { key, body: { items } });
  expect(res.status, res.text).toBe(201);
}

const refit = () => t.service.runner!.runOnce();

describe('personal score', () => {
  it('appears with 10 posts of history, follows refits, and is left out on request or for others', async () => {
    const { apiKey } = await t.signup();
    const other = await t.signup();
    expect((await score(apiKey)).personal).toBeUndefined();

    await importItems(apiKey, history(9));
    await refit();
    expect((await score(apiKey)).personal).toBeUndefined();

    await importItems(apiKey, history(31, 9));
    await refit();
    const scored = await score(apiKey);
    expect(scored.personal).toMatchObject({ basedOn: 40 });
    expect(scored.personal.overall).toBeGreaterThanOrEqual(0);
    expect(scored.personal.overall).toBeLessThanOrEqual(100);
    const { low, median, high } = scored.personal.expected;
    expect(low).toBeLessThan(median);
    expect(high).toBeGreaterThan(median);
    expect(scored.personal.note).toMatch(/^Based on 40 of your posts with engagement/);
    for (const s of scored.personal.signals) {
      expect(s.rule).toMatch(/^personal\./);
      expect(s.detail).toMatch(
        /^Your \d+ .+ earned [\d.]+x your median engagement, and the \d+ others earned [\d.]+x\.$/,
      );
    }
    // The global part is the same score as without personalisation.
    const plain = await score(apiKey, { personalize: false });
    expect(plain.personal).toBeUndefined();
    const { personal: _p, ...global } = scored;
    expect(global).toEqual(plain);
    // Insights name the factors, with effects measured in this history: openings on a figure
    // earn about four times the rest here.
    const insights = await t.request('GET', '/v1/insights', { key: apiKey });
    expect(insights.status, insights.text).toBe(200);
    const { factors } = insights.body;
    expect(factors.basedOn).toBe(40);
    expect(factors.positive.length).toBeGreaterThan(0);
    // Each factor agrees with its own figures and with the personal model.
    for (const f of factors.positive) {
      expect(f.modelMultiple).toBeGreaterThan(1);
      expect(f.multiple).toBeGreaterThan(f.without);
    }
    for (const f of factors.negative) {
      expect(f.modelMultiple).toBeLessThan(1);
      expect(f.multiple).toBeLessThan(f.without);
    }
    const lift = [...factors.positive, ...factors.negative].find(
      (f: { multiple: number; without: number }) => f.multiple / f.without > 2.5,
    );
    expect(lift, JSON.stringify(factors)).toBeDefined();
    expect(factors.note).toMatch(
      /^In your 40 posts with engagement, th(is factor|ese factors) made a clear difference/,
    );
    expect((await t.request('GET', '/v1/insights', { key: other.apiKey })).body.factors.basedOn).toBe(0);
    // Another account has no personal model of its own, and never sees this one.
    expect((await score(other.apiKey)).personal).toBeUndefined();

    // More history, a refit: the cached score is not served with the old model.
    await importItems(apiKey, history(20, 40));
    await refit();
    expect((await score(apiKey)).personal.basedOn).toBe(60);
    // Clearing the history takes the personal score away at the next refit.
    expect((await t.request('DELETE', '/v1/history', { key: apiKey })).body).toEqual({ deleted: 60 });
    await refit();
    expect((await score(apiKey)).personal).toBeUndefined();
  });

  it('rewrite, generate, a post’s score and the score_post tool carry it too', async () => {
    const { apiKey } = await t.signup();
    await importItems(apiKey, history(30));
    await refit();
    const rewrite = await t.request('POST', '/v1/rewrite', { key: apiKey, body: { post: DRAFT } });
    expect(rewrite.status, rewrite.text).toBe(200);
    expect(rewrite.body.before.personal.basedOn).toBe(30);
    expect(rewrite.body.after.personal.basedOn).toBe(30);
    const generated = await t.request('POST', '/v1/generate', {
      key: apiKey,
      body: { brief: 'what we learned about pricing', count: 2 },
    });
    expect(generated.status, generated.text).toBe(200);
    for (const c of generated.body.candidates) expect(c.score.personal.basedOn).toBe(30);
    const none = await t.request('POST', '/v1/generate', {
      key: apiKey,
      body: { brief: 'what we learned about pricing', personalize: false },
    });
    expect(none.body.candidates[0].score.personal).toBeUndefined();

    const post = await t.request('POST', '/v1/posts', { key: apiKey, body: { text: DRAFT } });
    const stored = await t.request('POST', `/v1/posts/${post.body.post.id}/score`, { key: apiKey });
    expect(stored.status, stored.text).toBe(200);
    expect(stored.body.result.personal.basedOn).toBe(30);

    const client = await connectClient(t.url, apiKey);
    const tool = await callOk(client, 'score_post', { post: DRAFT });
    await client.close();
    expect(tool.data.personal.basedOn).toBe(30);
  });

  it('a fit claimed by a process that died is retaken after its lease', async () => {
    const { apiKey, accountId } = await t.signup();
    await importItems(apiKey, history(12));
    // A process claimed the refit and died before writing it.
    await t.service.deps.db
      .update(personalModels)
      .set({ claimedAt: clock.now() })
      .where(eq(personalModels.accountId, accountId));
    await refit();
    expect((await score(apiKey)).personal).toBeUndefined();
    clock.advance(FIT_LEASE_MS + 1);
    await refit();
    expect((await score(apiKey)).personal.basedOn).toBe(12);
  });

  it('a model stored in an older shape is not used, and the sweep refits it', async () => {
    const { apiKey, accountId } = await t.signup();
    await importItems(apiKey, history(14));
    await refit();
    expect((await score(apiKey)).personal.basedOn).toBe(14);
    // A model written by the code before personal.v2: no meanScore, effects without q.
    const [row] = await t.service.deps.db
      .select({ model: personalModels.model })
      .from(personalModels)
      .where(eq(personalModels.accountId, accountId));
    const { meanScore: _m, ...old } = row!.model as Record<string, unknown>;
    await t.service.deps.db
      .update(personalModels)
      .set({ model: { ...old, schema: 'personal.v1' }, version: 99 })
      .where(eq(personalModels.accountId, accountId));
    clock.advance(10_000); // past the in-process cache of the model
    expect((await score(apiKey)).personal).toBeUndefined();
    const state = await t.request('GET', '/v1/insights', { key: apiKey });
    expect(state.body.personalModel).toMatchObject({ fitted: false, basedOn: 0 });
    await refit();
    clock.advance(10_000);
    const again = await score(apiKey);
    expect(again.personal.basedOn).toBe(14);
    expect(again.personal.note).toMatch(
      /^Based on 14 of your posts with engagement, this post is expected to earn /,
    );
  });
});

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { callErr, callOk, connectClient, rpc } from './helpers.ts';

/** The offline heuristic engine (LLM_PROVIDER unset): deterministic, no network. */
let t: TestApp;
let a: { apiKey: string; client: Client; brandId: string };
let b: { apiKey: string; client: Client; brandId: string };

beforeAll(async () => {
  t = await startTestApp();
  const setup = async (name: string) => {
    const { apiKey } = await t.signup();
    const brand = await t.request('POST', '/v1/brands', {
      key: apiKey,
      body: { name, audience: 'B2B founders', themes: ['pricing', 'hiring', 'churn'] },
    });
    expect(brand.status, brand.text).toBe(201);
    return { apiKey, client: await connectClient(t.url, apiKey), brandId: brand.body.brand.id as string };
  };
  a = await setup('Acme');
  b = await setup('Globex');
});
afterAll(async () => {
  await a?.client.close();
  await b?.client.close();
  await t?.close();
});

const rest = (path: string, key: string, body: unknown) => t.request('POST', path, { key, body });

const DRAFT =
  'We cut our churn from 7.1% to 3.4% in 90 days.\n\nNo discounts. We called every account that went quiet for 14 days and asked one question: what almost made you leave?\n\nWhat would you ask?';

describe('model-backed tools return what their REST routes return', () => {
  it('score_post', async () => {
    const args = { post: DRAFT, followerBand: '2k-10k', media: 'none' };
    const { data, summary } = await callOk(a.client, 'score_post', args);
    const viaRest = await rest('/v1/score', a.apiKey, args);
    expect(viaRest.status).toBe(200);
    expect(data).toEqual(viaRest.body);
    expect(data.overall).toBeGreaterThanOrEqual(0);
    expect(data.overall).toBeLessThanOrEqual(100);
    expect(summary).toContain(`${Math.round(data.overall)}/100`);
  });

  it('rewrite_post', async () => {
    const args = { post: 'Some thoughts on churn. #saas #growth #startup #b2b #founders #metrics' };
    const { data, summary } = await callOk(a.client, 'rewrite_post', args);
    expect(data).toEqual((await rest('/v1/rewrite', a.apiKey, args)).body);
    expect(data.rewrite).toEqual(expect.any(String));
    // The after-score is the score of the rewrite, as score_post measures it.
    const after = await callOk(a.client, 'score_post', { post: data.rewrite });
    expect(after.data.overall).toBe(data.after.overall);
    expect(summary).toContain(`${Math.round(data.after.overall)}/100`);
  });

  it('generate_post, conditioned on a brand and a voice built through build_voice', async () => {
    const voice = await callOk(a.client, 'build_voice', {
      name: 'Founder voice',
      brandId: a.brandId,
      samples: [DRAFT, 'Hiring our first AE took 4 months. Here is the scorecard we used.'],
    });
    expect(voice.data.voice).toMatchObject({ name: 'Founder voice', brandId: a.brandId });
    expect(voice.summary).toContain(voice.data.voice.id);
    const readBack = await t.request('GET', `/v1/voices/${voice.data.voice.id}`, { key: a.apiKey });
    expect(readBack.body).toEqual(voice.data);

    const args = {
      brief: 'Why we stopped discounting',
      count: 2,
      brandId: a.brandId,
      voiceId: voice.data.voice.id,
    };
    const { data, summary } = await callOk(a.client, 'generate_post', args);
    expect(data).toEqual((await rest('/v1/generate', a.apiKey, args)).body);
    expect(data.candidates.length).toBeGreaterThanOrEqual(1);
    expect(data.candidates.length).toBeLessThanOrEqual(2);
    const overall = data.candidates.map((c: { score: { overall: number } }) => c.score.overall);
    expect(overall).toEqual([...overall].sort((x, y) => y - x));
    expect(summary).toContain(`${Math.round(overall[0])}/100`);
  });

  it('generate_post says when a platformB draft is a thread', async () => {
    const args = {
      brief:
        'Five lessons from two years of running Airflow DAGs in production: 1) keep every task idempotent so retries are safe; 2) never pass large data through XCom, write it to S3 and pass the path; 3) pin provider versions, because a minor upgrade broke 14 of our DAGs; 4) alert on SLA misses, not only on failures; 5) delete DAGs nobody owns, we removed 37 and nothing broke.',
      platform: 'platformB',
    };
    const { data, summary } = await callOk(a.client, 'generate_post', args);
    const [draft] = data.candidates as { thread: string[] }[];
    expect(draft!.thread.length).toBeGreaterThan(0);
    expect(summary).toContain(`(a thread of ${draft!.thread.length + 1} parts)`);
  });

  it('plan_week', async () => {
    const args = { brief: 'A week on retention', count: 3, cadence: 'weekdays', brandId: a.brandId };
    const { data, summary } = await callOk(a.client, 'plan_week', args);
    expect(data).toEqual((await rest('/v1/plan', a.apiKey, args)).body);
    expect(data.items.map((i: { slot: number }) => i.slot)).toEqual([1, 2, 3]);
    expect(summary).toMatch(/^3 plan items\./);
  });
});

describe('memory tools', () => {
  it('list_brands and list_voices return what GET /v1/brands and /v1/voices return', async () => {
    const brands = await callOk(a.client, 'list_brands');
    expect(brands.data).toEqual((await t.request('GET', '/v1/brands', { key: a.apiKey })).body);
    expect(brands.data.brands.map((x: { id: string }) => x.id)).toEqual([a.brandId]);
    expect(brands.summary).toContain(a.brandId);
    const voices = await callOk(a.client, 'list_voices');
    expect(voices.data).toEqual((await t.request('GET', '/v1/voices', { key: a.apiKey })).body);
  });
});

describe('tenancy', () => {
  it("another account's brand and voice ids are refused as bad references, and its memory is not listed", async () => {
    const voice = await callOk(a.client, 'build_voice', { name: 'A only', samples: [DRAFT] });
    const voiceId = voice.data.voice.id;
    for (const [name, args] of [
      ['generate_post', { brief: 'x', brandId: a.brandId }],
      ['generate_post', { brief: 'x', voiceId }],
      ['plan_week', { brief: 'x', brandId: a.brandId }],
      ['plan_week', { brief: 'x', voiceId }],
      ['build_voice', { name: 'Stolen', brandId: a.brandId, samples: [DRAFT] }],
    ] as const) {
      const err = await callErr(b.client, name, args);
      expect(err.error.code, `${name} ${JSON.stringify(args)}`).toBe('invalid_request');
    }
    const bBrands = await callOk(b.client, 'list_brands');
    expect(bBrands.data.brands.map((x: { id: string }) => x.id)).toEqual([b.brandId]);
    const bVoices = await callOk(b.client, 'list_voices');
    expect(bVoices.data.voices.map((x: { id: string }) => x.id)).not.toContain(voiceId);
  });
});

describe('validation', () => {
  it('bad arguments are invalid_request tool errors with the same rules as the REST bodies', async () => {
    const blank = await callErr(a.client, 'score_post', { post: '   ' });
    expect(blank.error.code).toBe('invalid_request');
    expect(blank.error.details).toContainEqual({ path: 'post', message: expect.stringMatching(/empty/) });
    const tooMany = await callErr(a.client, 'generate_post', { brief: 'x', count: 4 });
    expect(tooMany.error.details?.map((d) => d.path)).toEqual(['count']);
    const platform = await callErr(a.client, 'plan_week', { brief: 'x', platform: 'platformC' });
    expect(platform.error.details?.map((d) => d.path)).toEqual(['platform']);
    const samples = await callErr(a.client, 'build_voice', { name: 'x', samples: [] });
    expect(samples.error.details?.map((d) => d.path)).toEqual(['samples']);
    const restTooMany = await rest('/v1/generate', a.apiKey, { brief: 'x', count: 4 });
    expect(restTooMany.status).toBe(400);
  });
});

describe('idempotency', () => {
  it('build_voice with an idempotencyKey saves one voice however often it is retried', async () => {
    const args = { name: 'Retried', samples: [DRAFT], idempotencyKey: 'voice-once' };
    const first = await callOk(a.client, 'build_voice', args);
    const second = await callOk(a.client, 'build_voice', args);
    expect(second.data).toEqual(first.data);
    expect(second.result._meta).toEqual({ idempotentReplay: true });
    const voices = await callOk(a.client, 'list_voices');
    expect(voices.data.voices.filter((v: { name: string }) => v.name === 'Retried')).toHaveLength(1);
  });
});

describe('quota and the model budget', () => {
  it('model-backed tools spend the monthly quota shared with REST; a cached input stays free', async () => {
    const small = await startTestApp({ FREE_PLAN_MODEL_QUOTA: '2' });
    try {
      const { apiKey } = await small.signup();
      const client = await connectClient(small.url, apiKey);
      await callOk(client, 'score_post', { post: 'First distinct post about pricing.' });
      const viaRest = await small.request('POST', '/v1/score', {
        key: apiKey,
        body: { post: 'Second distinct post about hiring.' },
      });
      expect(viaRest.status).toBe(200);
      const over = await callErr(client, 'score_post', { post: 'Third distinct post about churn.' });
      expect(over.error.code).toBe('quota_exceeded');
      expect(
        (await small.request('POST', '/v1/score', { key: apiKey, body: { post: 'Fourth post.' } })).status,
      ).toBe(402);
      // The same input again is a cache hit: no quota needed.
      await callOk(client, 'score_post', { post: 'First distinct post about pricing.' });
      // Free tools are untouched by the quota.
      await callOk(client, 'list_posts');
      await client.close();
    } finally {
      await small.close();
    }
  });

  it('model-backed tools spend the per-minute model budget shared with REST, and report it in headers', async () => {
    const small = await startTestApp({ RATE_LIMIT_MODEL_PER_MIN: '3' });
    try {
      const { apiKey } = await small.signup();
      const auth = { authorization: `Bearer ${apiKey}` };
      const score = (id: number, post: string) => ({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'score_post', arguments: { post } },
      });
      const first = await rpc(small.url, score(1, 'Budget one.'), auth);
      expect(first.body.result.isError).toBeUndefined();
      expect(first.headers.get('x-ratelimit-llm-limit')).toBe('3');
      expect(first.headers.get('x-ratelimit-llm-remaining')).toBe('2');
      expect(
        (await small.request('POST', '/v1/score', { key: apiKey, body: { post: 'Budget two.' } })).status,
      ).toBe(200);
      const third = await rpc(small.url, score(3, 'Budget three.'), auth);
      expect(third.headers.get('x-ratelimit-llm-remaining')).toBe('0');

      const client = await connectClient(small.url, apiKey);
      const over = await callErr(client, 'score_post', { post: 'Budget four.' });
      expect(over.error.code).toBe('rate_limited');
      // A free tool does not touch the model budget.
      await callOk(client, 'list_brands');
      await client.close();
      expect(
        (await small.request('POST', '/v1/score', { key: apiKey, body: { post: 'Five.' } })).status,
      ).toBe(429);
    } finally {
      await small.close();
    }
  });
});

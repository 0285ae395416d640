import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let key: string;
let otherKey: string;

beforeAll(async () => {
  t = await startTestApp();
  key = (await t.signup()).apiKey;
  otherKey = (await t.signup()).apiKey;
});
afterAll(async () => {
  await t?.close();
});

const brandBody = {
  name: 'Acme Clinics',
  description: 'Billing software for small clinics.',
  audience: 'Clinic managers',
  themes: ['Billing', 'Patient experience'],
  linkPolicy: 'Links go in the first comment.',
};

describe('brands', () => {
  it('creates, reads, lists newest first, patches only given fields and deletes', async () => {
    const a = await t.request('POST', '/v1/brands', { key, body: { name: 'First' } });
    expect(a.status).toBe(201);
    expect(a.body.brand).toMatchObject({
      name: 'First',
      description: null,
      audience: null,
      themes: [],
      linkPolicy: null,
    });
    expect(a.body.brand.id).toMatch(/^brd_/);
    const b = await t.request('POST', '/v1/brands', { key, body: brandBody });
    const list = await t.request('GET', '/v1/brands', { key });
    expect(list.body.brands.map((x: { id: string }) => x.id)).toEqual([b.body.brand.id, a.body.brand.id]);
    const patched = await t.request('PATCH', `/v1/brands/${a.body.brand.id}`, {
      key,
      body: { audience: 'Founders', themes: ['Pricing'] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.brand).toMatchObject({ name: 'First', audience: 'Founders', themes: ['Pricing'] });
    const cleared = await t.request('PATCH', `/v1/brands/${a.body.brand.id}`, {
      key,
      body: { audience: null },
    });
    expect(cleared.body.brand.audience).toBeNull();
    expect((await t.request('GET', `/v1/brands/${a.body.brand.id}`, { key })).body.brand.themes).toEqual([
      'Pricing',
    ]);
    expect((await t.request('DELETE', `/v1/brands/${a.body.brand.id}`, { key })).body).toEqual({
      deleted: true,
    });
    expect((await t.request('GET', `/v1/brands/${a.body.brand.id}`, { key })).status).toBe(404);
  });

  it('hides brands from other accounts (404) and rejects bad bodies (400)', async () => {
    const { body } = await t.request('POST', '/v1/brands', { key, body: brandBody });
    const id = body.brand.id;
    for (const [method, payload] of [
      ['GET', undefined],
      ['PATCH', { name: 'stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.request(method, `/v1/brands/${id}`, { key: otherKey, body: payload });
      expect(res.status, method).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await t.request('GET', '/v1/brands', { key: otherKey })).body.brands).toEqual([]);
    for (const bad of [{}, { name: '' }, { name: 'x', themes: 'Billing' }, { name: 'x', extra: 1 }]) {
      expect((await t.request('POST', '/v1/brands', { key, body: bad })).status, JSON.stringify(bad)).toBe(
        400,
      );
    }
    expect((await t.request('PATCH', `/v1/brands/${id}`, { key, body: { name: 7 } })).status).toBe(400);
  });
});

describe('voices', () => {
  it('stores explicit lists, distils samples, and survives its brand being deleted', async () => {
    const brand = (await t.request('POST', '/v1/brands', { key, body: brandBody })).body.brand;
    const explicit = await t.request('POST', '/v1/voices', {
      key,
      body: {
        name: 'Plain',
        brandId: brand.id,
        traits: ['Short lines'],
        doNot: ['No emoji'],
        exemplars: ['Hi.'],
      },
    });
    expect(explicit.status).toBe(201);
    expect(explicit.body.voice).toMatchObject({
      brandId: brand.id,
      traits: ['Short lines'],
      doNot: ['No emoji'],
      exemplars: ['Hi.'],
    });
    const samples = [
      'I shipped the new pricing page today.\nIt took three tries.\nSmall teams win on clarity.',
      'I hired our first designer.\nShe asked better questions than I did.\nSmall teams win on clarity.',
    ];
    const distilled = await t.request('POST', '/v1/voices', {
      key,
      body: { name: 'Me', samples, traits: ['ignored'], doNot: ['ignored'], exemplars: ['ignored'] },
    });
    expect(distilled.status).toBe(201);
    expect(distilled.body.voice.traits).not.toContain('ignored');
    expect(distilled.body.voice.traits.join(' ')).toMatch(/first person/);
    expect(distilled.body.voice.doNot).toContain('Do not add hashtags.');
    for (const e of distilled.body.voice.exemplars) expect(samples.some((s) => s.includes(e))).toBe(true);
    const built = await t.request('POST', '/v1/voices/build', {
      key,
      body: { name: 'Built', brandId: brand.id, samples },
    });
    expect(built.status).toBe(201);
    expect(built.body.voice.traits).toEqual(distilled.body.voice.traits);

    const list = await t.request('GET', '/v1/voices', { key });
    expect(list.body.voices.map((v: { id: string }) => v.id).slice(0, 3)).toEqual([
      built.body.voice.id,
      distilled.body.voice.id,
      explicit.body.voice.id,
    ]);

    await t.request('DELETE', `/v1/brands/${brand.id}`, { key });
    const kept = await t.request('GET', `/v1/voices/${explicit.body.voice.id}`, { key });
    expect(kept.status).toBe(200);
    expect(kept.body.voice.brandId).toBeNull();
    expect(
      (await t.request('GET', `/v1/voices/${built.body.voice.id}`, { key })).body.voice.brandId,
    ).toBeNull();
  });

  it('patches, detaches and deletes; other accounts get 404', async () => {
    const brand = (await t.request('POST', '/v1/brands', { key, body: { name: 'B' } })).body.brand;
    const v = (await t.request('POST', '/v1/voices', { key, body: { name: 'V' } })).body.voice;
    const attached = await t.request('PATCH', `/v1/voices/${v.id}`, {
      key,
      body: { brandId: brand.id, traits: ['Dry'] },
    });
    expect(attached.body.voice).toMatchObject({ name: 'V', brandId: brand.id, traits: ['Dry'] });
    const detached = await t.request('PATCH', `/v1/voices/${v.id}`, { key, body: { brandId: null } });
    expect(detached.body.voice.brandId).toBeNull();
    expect(detached.body.voice.traits).toEqual(['Dry']);

    for (const [method, payload] of [
      ['GET', undefined],
      ['PATCH', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      expect((await t.request(method, `/v1/voices/${v.id}`, { key: otherKey, body: payload })).status).toBe(
        404,
      );
    }
    // A foreign brand cannot be attached, on create or on patch: a body reference, so 400 naming the field.
    const foreign = (await t.request('POST', '/v1/brands', { key: otherKey, body: { name: 'Theirs' } })).body
      .brand;
    const create = await t.request('POST', '/v1/voices', { key, body: { name: 'x', brandId: foreign.id } });
    expect(create.status).toBe(400);
    expect(create.body.error.details[0].path).toBe('brandId');
    const patch = await t.request('PATCH', `/v1/voices/${v.id}`, { key, body: { brandId: foreign.id } });
    expect(patch.status).toBe(400);
    expect(patch.body.error.details[0].path).toBe('brandId');

    expect((await t.request('DELETE', `/v1/voices/${v.id}`, { key })).body).toEqual({ deleted: true });
    expect((await t.request('DELETE', `/v1/voices/${v.id}`, { key })).status).toBe(404);
  });

  it('rejects bad voice bodies with 400', async () => {
    const thirteen = Array.from({ length: 13 }, (_, i) => `Sample ${i}.`);
    for (const [path, body] of [
      ['/v1/voices', { name: 'x', samples: [] }],
      ['/v1/voices', { name: 'x', samples: thirteen }],
      ['/v1/voices', { name: 'x', samples: ['  '] }],
      ['/v1/voices', { samples: ['ok'] }],
      ['/v1/voices/build', { name: 'x' }],
      ['/v1/voices/build', { name: 'x', samples: thirteen }],
    ] as const) {
      expect((await t.request('POST', path, { key, body })).status, JSON.stringify(body).slice(0, 60)).toBe(
        400,
      );
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ BODY_LIMIT_BYTES: '4096' });
});
afterAll(async () => {
  await t?.close();
});

describe('POST /v1/account', () => {
  it('creates an account with its first key, shown once', async () => {
    const res = await t.request('POST', '/v1/account', {
      body: { email: 'Ada@Example.com', name: 'laptop' },
    });
    expect(res.status).toBe(201);
    expect(res.body.account).toEqual({
      id: expect.stringMatching(/^acc_/),
      email: 'Ada@Example.com',
      plan: 'free',
    });
    expect(res.body.key).toMatchObject({
      id: expect.stringMatching(/^key_/),
      name: 'laptop',
      revokedAt: null,
    });
    expect(res.body.apiKey).toMatch(/^kit_sk_[0-9A-Za-z]{38}$/);
    expect(res.body.apiKey.startsWith(res.body.key.keyPrefix)).toBe(true);
    const keys = await t.request('GET', '/v1/keys', { key: res.body.apiKey });
    expect(JSON.stringify(keys.body)).not.toContain(res.body.apiKey);
  });

  it('answers 409 email_taken for an existing email, whatever its case', async () => {
    await t.signup('grace@example.com');
    const res = await t.request('POST', '/v1/account', { body: { email: 'GRACE@example.COM' } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('email_taken');
    expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('names the failing fields of a bad body', async () => {
    const res = await t.request('POST', '/v1/account', {
      body: { email: 'not-an-email', name: 42, extra: true },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    const paths = res.body.error.details.map((d: { path: string }) => d.path).sort();
    expect(paths).toEqual(['email', 'extra', 'name']);
  });

  it('rejects malformed JSON, an empty body, a wrong content type and an oversized body with clear 4xx', async () => {
    const malformed = await t.request('POST', '/v1/account', {
      raw: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toMatch(/not valid JSON/);

    const missing = await t.request('POST', '/v1/account', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].path).toBe('email');

    const wrongType = await t.request('POST', '/v1/account', {
      raw: 'email=a@b.c',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.error.code).toBe('unsupported_media_type');

    const huge = await t.request('POST', '/v1/account', {
      body: { email: `${'a'.repeat(5000)}@example.com` },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('payload_too_large');
  });

  it('limits account creation per IP with 429 and Retry-After', async () => {
    const limited = await startTestApp({ RATE_LIMIT_SIGNUPS_PER_HOUR: '2' });
    try {
      expect(
        (await limited.request('POST', '/v1/account', { body: { email: 'a1@example.com' } })).status,
      ).toBe(201);
      expect(
        (await limited.request('POST', '/v1/account', { body: { email: 'a2@example.com' } })).status,
      ).toBe(201);
      const third = await limited.request('POST', '/v1/account', { body: { email: 'a3@example.com' } });
      expect(third.status).toBe(429);
      expect(third.body.error.code).toBe('rate_limited');
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(third.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    } finally {
      await limited.close();
    }
  });
});

describe('GET /v1/account', () => {
  it('returns the account and the calling key with rate-limit headers', async () => {
    const { apiKey, accountId, keyId } = await t.signup();
    const res = await t.request('GET', '/v1/account', { key: apiKey });
    expect(res.status).toBe(200);
    expect(res.body.account.id).toBe(accountId);
    expect(res.body.key.id).toBe(keyId);
    expect(res.headers.get('x-ratelimit-limit')).toBe('100000');
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(100000);
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
  });

  it('answers 401 for missing, malformed, bad-checksum and unknown keys', async () => {
    const { apiKey } = await t.signup();
    const flipped = apiKey.slice(0, -1) + (apiKey.endsWith('A') ? 'B' : 'A');
    const unknown = 'kit_sk_' + 'x'.repeat(32);
    for (const header of [undefined, 'Basic abc', `Bearer ${flipped}`, `Bearer ${unknown}`, 'Bearer ']) {
      const res = await t.request('GET', '/v1/account', { headers: header ? { authorization: header } : {} });
      expect(res.status, String(header)).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    }
  });
});

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../../src/server.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_REQUESTS_PER_MIN: '5' });
});
afterAll(async () => {
  await t?.close();
});

describe('per-key request budget', () => {
  it('counts down in headers and answers 429 with Retry-After once spent', async () => {
    const { apiKey } = await t.signup();
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.request('GET', '/v1/account', { key: apiKey });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('5');
      remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const limited = await t.request('GET', '/v1/keys', { key: apiKey });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('keeps separate budgets per key', async () => {
    const a = await t.signup();
    const b = await t.signup();
    for (let i = 0; i < 5; i++) await t.request('GET', '/v1/account', { key: a.apiKey });
    expect((await t.request('GET', '/v1/account', { key: a.apiKey })).status).toBe(429);
    expect((await t.request('GET', '/v1/account', { key: b.apiKey })).status).toBe(200);
  });

  it.runIf(Boolean(process.env.REDIS_URL))('is shared by two API processes on one Redis', async () => {
    const kvPrefix = `test:${randomBytes(6).toString('hex')}:`;
    const first = await startTestApp({ RATE_LIMIT_REQUESTS_PER_MIN: '5' }, { kvPrefix });
    // A second API process on the same database and the same Redis namespace.
    const second = await startService(first.config, { kvPrefix, autoStartRunner: false });
    try {
      const { apiKey } = await first.signup();
      const urls = [first.url, second.url!];
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await fetch(`${urls[i % 2]}/v1/account`, {
          headers: { authorization: `Bearer ${apiKey}` },
        });
        statuses.push(res.status);
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

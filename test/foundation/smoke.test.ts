import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('smoke', () => {
  it('serves healthz, signup and whoami', async () => {
    expect((await t.request('GET', '/healthz')).text).toBe('ok');
    const { apiKey, accountId } = await t.signup('Smoke@Example.com');
    const me = await t.request('GET', '/v1/account', { key: apiKey });
    expect(me.status).toBe(200);
    expect(me.body.account.id).toBe(accountId);
    expect(me.headers.get('x-ratelimit-limit')).toBe('100000');
  });
});

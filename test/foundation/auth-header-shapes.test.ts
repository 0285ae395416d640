import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ AUTH_CACHE_TTL_MS: '60000' });
});
afterAll(async () => {
  await t?.close();
});

/**
 * The auth hook hashes `Bearer <token>` before parsing it and trusts a cache hit (src/http/auth.ts):
 * every header shape must still answer as the parser says, before and after the key is cached.
 */
describe('Authorization header shapes around the key cache', () => {
  it('answers each shape the same whether or not the key is cached', async () => {
    const { apiKey } = await t.signup();
    const shapes: [string, number][] = [
      [`Bearer ${apiKey}`, 200],
      [`bearer   ${apiKey}  `, 200],
      [`Bearer ${apiKey} `, 200],
      [`Bearer  ${apiKey}`, 200],
      [`Bearer ${apiKey} extra`, 401],
      [`Bearer ${apiKey}x`, 401],
      [`Bearer ${apiKey.slice(0, -1)}`, 401],
      ['Bearer ', 401],
      [`Basic ${apiKey}`, 401],
    ];
    for (const round of ['not cached yet', 'cached']) {
      for (const [authorization, status] of shapes) {
        const res = await t.request('GET', '/v1/account', { headers: { authorization } });
        expect(res.status, `${round}: ${JSON.stringify(authorization)}`).toBe(status);
        if (status === 200) {
          expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
          expect(res.headers.get('x-request-id')).toMatch(/^req_/);
        }
      }
      // The first round's 200s cached the key; the second round runs on the hot path.
    }
  });
});

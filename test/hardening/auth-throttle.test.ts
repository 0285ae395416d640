import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/features/keys/key-format.ts';
import { backend, startTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Unauthenticated traffic is cheap to refuse (issue 14): failed authentication is throttled per
 * client address in memory, and keys that do not exist leave no state behind (no rate-limit
 * keys in the store, one database read per unknown key at most).
 */
const FAILURES_PER_MIN = 40;
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ AUTH_FAILURES_PER_MIN: String(FAILURES_PER_MIN) });
});
afterAll(async () => {
  await t?.close();
});

const digestOf = (key: string) => createHash('sha256').update(key).digest('hex');
/** The overall budget's store key for a key (src/http/auth.ts keyBudgets). */
const budgetKeyOf = (key: string) => `rl:req:${digestOf(key).slice(0, 32)}`;

describe('failed authentication', () => {
  it(`700 requests with one unknown, well-formed key: 401 up to ${FAILURES_PER_MIN}, then 429 with Retry-After`, async () => {
    // A client that authenticated before the flood, from the same address.
    const { apiKey: validKey } = await t.signup();
    expect((await t.request('GET', '/v1/account', { key: validKey })).status).toBe(200);

    const unknown = generateApiKey();
    const statuses: number[] = [];
    let lastLimited: Awaited<ReturnType<TestApp['request']>> | undefined;
    for (let i = 0; i < 700; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, () => t.request('GET', '/v1/posts', { key: unknown })),
      );
      for (const res of batch) {
        statuses.push(res.status);
        if (res.status === 429) lastLimited = res;
      }
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(FAILURES_PER_MIN);
    expect(statuses.filter((s) => s === 429)).toHaveLength(700 - FAILURES_PER_MIN);
    expect(lastLimited!.body.error.code).toBe('rate_limited');
    expect(Number(lastLimited!.headers.get('retry-after'))).toBeGreaterThan(0);
    // The flood wrote nothing for the key that does not exist.
    expect(await t.service.deps.kv.get(budgetKeyOf(unknown))).toBeNull();

    // The valid key this process already knows keeps working from the throttled address.
    expect((await t.request('GET', '/v1/account', { key: validKey })).status).toBe(200);
  }, 120_000);
});

describe('a valid key is never throttled by its own burst', () => {
  it(`100 concurrent first requests with one new key all pass at a limit of ${FAILURES_PER_MIN}`, async () => {
    // Its own app: the flood above has throttled this address on `t`.
    const app = await startTestApp({ AUTH_FAILURES_PER_MIN: String(FAILURES_PER_MIN) });
    try {
      const { apiKey } = await app.signup();
      const answers = await Promise.all(
        Array.from({ length: 100 }, () => app.request('GET', '/v1/account', { key: apiKey })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200));
    } finally {
      await app.close();
    }
  }, 60_000);
});

describe('keys that do not exist leave nothing behind', () => {
  it('200 random well-formed keys create no rate-limit keys in the store', async () => {
    const app = await startTestApp({ AUTH_FAILURES_PER_MIN: '100000' });
    try {
      const keys = Array.from({ length: 200 }, generateApiKey);
      for (let i = 0; i < keys.length; i += 20) {
        const batch = await Promise.all(
          keys.slice(i, i + 20).map((key) => app.request('GET', '/v1/posts', { key })),
        );
        for (const res of batch) expect(res.status).toBe(401);
      }
      for (const key of keys) expect(await app.service.deps.kv.get(budgetKeyOf(key))).toBeNull();
      // A real key still gets its budget.
      const { apiKey } = await app.signup();
      const ok = await app.request('GET', '/v1/posts', { key: apiKey });
      expect(ok.headers.get('x-ratelimit-remaining')).not.toBeNull();
      expect(await app.service.deps.kv.get(budgetKeyOf(apiKey))).not.toBeNull();
    } finally {
      await app.close();
    }
  }, 120_000);

  it.runIf(backend === 'postgres')(
    'an unknown key is looked up once: repeating it answers 401 without the database',
    async () => {
      const app = await startTestApp({ AUTH_FAILURES_PER_MIN: '100000' });
      try {
        const unknown = generateApiKey();
        expect((await app.request('GET', '/v1/posts', { key: unknown })).status).toBe(401);
        // With the pool gone, any database read would be a 503: a 401 proves none happened.
        await app.service.deps.database.close();
        for (let i = 0; i < 5; i++) {
          const res = await app.request('GET', '/v1/posts', { key: unknown });
          expect(res.status, res.text).toBe(401);
        }
      } finally {
        await app.close().catch(() => {});
      }
    },
    60_000,
  );
});

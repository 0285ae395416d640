import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, startTestApp, type TestApp, type TestResponse } from '../helpers/app.ts';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';

/**
 * A PostgreSQL outage answered fast (issue 14): with the database behind a TCP proxy that
 * freezes (connections open, no bytes) or refuses connections, requests that need it answer
 * 503 `dependency_unavailable` with Retry-After within a few seconds, even 20 at a time, and
 * service is back within about a second of the database returning.
 */
const PG = process.env.DATABASE_URL;
const REDIS = process.env.REDIS_URL;

/** The longest any request may wait for its 503 during an outage. */
const OUTAGE_ANSWER_MS = 4_000;
/** How soon after the database returns a request must succeed again. */
const RECOVERY_MS = 2_000;

describe.runIf(Boolean(PG && REDIS))('PostgreSQL outage', () => {
  let proxy: FaultProxy;
  let t: TestApp;
  let apiKey: string;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const db = await freshDatabase();
    drop = db!.drop;
    const dbUrl = new URL(db!.url);
    proxy = await startFaultProxy({ host: dbUrl.hostname, port: Number(dbUrl.port || 5432) });
    dbUrl.host = `${proxy.host}:${proxy.port}`;
    t = await startTestApp({ DATABASE_URL: dbUrl.toString(), REDIS_URL: REDIS, AUTH_CACHE_TTL_MS: '0' });
    apiKey = (await t.signup()).apiKey;
  }, 60_000);
  afterAll(async () => {
    proxy?.setFrozen(false);
    await t?.close();
    await proxy?.close();
    await drop?.();
  });

  const timed = async (): Promise<TestResponse & { ms: number }> => {
    const started = Date.now();
    const res = await t.request('GET', '/v1/posts', { key: apiKey });
    return { ...res, ms: Date.now() - started };
  };

  function expectFast503s(answers: (TestResponse & { ms: number })[]) {
    for (const res of answers) {
      expect(res.status, res.text).toBe(503);
      expect(res.body.error.code).toBe('dependency_unavailable');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.text).not.toMatch(/postgres|ECONN|127\.0\.0\.1/i);
      expect(res.ms).toBeLessThan(OUTAGE_ANSWER_MS);
    }
  }

  async function timeToRecover(): Promise<number> {
    const back = Date.now();
    for (;;) {
      const res = await t.request('GET', '/v1/posts', { key: apiKey });
      if (res.status === 200) return Date.now() - back;
      if (Date.now() - back > 30_000) throw new Error(`not recovered: ${res.status} ${res.text}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it('a frozen database: 20 parallel requests get 503 within the bound, later ones at once; recovery is quick', async () => {
    expect((await timed()).status).toBe(200);
    proxy.setFrozen(true);
    expectFast503s(await Promise.all(Array.from({ length: 20 }, timed)));
    // Once the outage is known, a request does not wait for it again.
    const later = await Promise.all(Array.from({ length: 5 }, timed));
    expectFast503s(later);
    for (const res of later) expect(res.ms).toBeLessThan(500);
    // The sweeps fail just as fast (and try again on their next tick) instead of hanging.
    const sweepStarted = Date.now();
    await t.service.runner!.runOnce().catch(() => {});
    expect(Date.now() - sweepStarted).toBeLessThan(1_000);
    proxy.setFrozen(false);
    expect(await timeToRecover()).toBeLessThan(RECOVERY_MS);
  }, 60_000);

  it('refused connections: 20 parallel requests get 503 within the bound; recovery is quick', async () => {
    expect((await timed()).status).toBe(200);
    await proxy.setDown(true);
    expectFast503s(await Promise.all(Array.from({ length: 20 }, timed)));
    expectFast503s(await Promise.all(Array.from({ length: 20 }, timed)));
    await proxy.setDown(false);
    expect(await timeToRecover()).toBeLessThan(RECOVERY_MS);
  }, 60_000);

  it('a database that freezes and never comes back still gets 503s, never a hang', async () => {
    proxy.setFrozen(true);
    try {
      for (let i = 0; i < 3; i++) {
        expectFast503s([await timed()]);
        await new Promise((r) => setTimeout(r, 700));
      }
    } finally {
      proxy.setFrozen(false);
    }
    expect(await timeToRecover()).toBeLessThan(RECOVERY_MS);
  }, 60_000);
});

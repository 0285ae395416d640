import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, startTestApp, type TestApp } from '../helpers/app.ts';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { until } from '../helpers/until.ts';

/**
 * Dependency faults on the server backends: PostgreSQL and Redis behind a TCP fault proxy that
 * can refuse and cut connections, as a restart or a network partition would.
 */
const PG = process.env.DATABASE_URL;
const REDIS = process.env.REDIS_URL;

const waitFor = (check: () => Promise<boolean>, what: string) => until(what, check, 10_000, 50);

describe.runIf(Boolean(PG && REDIS))('dependency faults', () => {
  let pgProxy: FaultProxy;
  let redisProxy: FaultProxy;
  let t: TestApp;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const db = await freshDatabase();
    drop = db!.drop;
    const dbUrl = new URL(db!.url);
    pgProxy = await startFaultProxy({ host: dbUrl.hostname, port: Number(dbUrl.port || 5432) });
    dbUrl.host = `${pgProxy.host}:${pgProxy.port}`;
    const redisUrl = new URL(REDIS!);
    redisProxy = await startFaultProxy({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
    redisUrl.host = `${redisProxy.host}:${redisProxy.port}`;
    t = await startTestApp({ DATABASE_URL: dbUrl.toString(), REDIS_URL: redisUrl.toString() });
  });
  afterAll(async () => {
    await t?.close();
    await pgProxy?.close();
    await redisProxy?.close();
    await drop?.();
  });

  it('reports the database degraded while it is down and recovers when it returns', async () => {
    const { apiKey } = await t.signup();
    await pgProxy.setDown(true);
    await waitFor(async () => (await t.request('GET', '/v1/health')).status === 503, 'health 503');
    const health = await t.request('GET', '/v1/health');
    expect(health.body.checks.database.status).toBe('degraded');
    const during = await t.request('GET', '/v1/account', { key: apiKey });
    expect(during.status).toBe(503);
    expect(during.body.error.code).toBe('dependency_unavailable');
    expect(during.headers.get('retry-after')).toBe('2');
    expect(during.text).not.toMatch(/postgres|ECONN|password/i);
    await pgProxy.setDown(false);
    await waitFor(async () => (await t.request('GET', '/v1/health')).status === 200, 'health 200');
    expect((await t.request('GET', '/v1/account', { key: apiKey })).status).toBe(200);
  }, 90_000);

  it('fails rate limits open and refuses idempotent requests while Redis is down, then recovers', async () => {
    const { apiKey } = await t.signup();
    await redisProxy.setDown(true);
    await waitFor(async () => (await t.request('GET', '/v1/health')).status === 503, 'health 503');
    const open = await t.request('GET', '/v1/account', { key: apiKey });
    expect(open.status).toBe(200);
    expect(open.headers.get('x-ratelimit-limit')).toBeNull();
    await redisProxy.setDown(false);
    await waitFor(async () => (await t.request('GET', '/v1/health')).status === 200, 'health 200');
    const back = await t.request('GET', '/v1/account', { key: apiKey });
    expect(back.headers.get('x-ratelimit-limit')).not.toBeNull();
  });
});

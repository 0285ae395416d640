import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/lib/hash.ts';
import { freshDatabase, type TestApp } from '../helpers/app.ts';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { httpRequest, type ServiceProcess, spawnService } from '../helpers/processes.ts';
import { until } from '../helpers/until.ts';
import { connectApp } from '../mcp/oauth-helpers.ts';

/**
 * Nothing secret in the logs during a dependency outage (issue 37 item 3): a real service
 * process logging at debug, PostgreSQL behind a fault proxy that freezes and then refuses, and
 * requests carrying a key, OAuth tokens, emails and post texts throughout. Every line it printed
 * is searched for each secret and its SHA-256 (the key's verifier is its digest).
 */
const PG = process.env.DATABASE_URL;
const REDIS = process.env.REDIS_URL;

describe.runIf(Boolean(PG && REDIS))('logs during a PostgreSQL outage', () => {
  let proxy: FaultProxy;
  let app: ServiceProcess;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const db = await freshDatabase();
    drop = db!.drop;
    const dbUrl = new URL(db!.url);
    proxy = await startFaultProxy({ host: dbUrl.hostname, port: Number(dbUrl.port || 5432) });
    dbUrl.host = `${proxy.host}:${proxy.port}`;
    app = await spawnService('all', {
      DATABASE_URL: dbUrl.toString(),
      REDIS_URL: REDIS,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'postkit-logs-')),
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      // The first key stays cached, so its requests reach the queries that carry texts; the
      // second is first used in the outage, so its lookup (with the key's digest) fails.
      AUTH_CACHE_TTL_MS: '600000',
      SWEEP_INTERVAL_MS: '200',
      RATE_LIMIT_REQUESTS_PER_MIN: '100000',
      RATE_LIMIT_SIGNUPS_PER_HOUR: '100000',
      AUTH_FAILURES_PER_MIN: '100000',
    });
  }, 90_000);
  afterAll(async () => {
    proxy?.setFrozen(false);
    await app?.kill();
    await proxy?.close();
    await drop?.();
  });

  it('logs the failed queries without their values: no key, digest, token, email or post text', async () => {
    const url = app.url!;
    const t = { url, request: (m: string, p: string, o?: object) => httpRequest(url, m, p, o) } as TestApp;
    const email = `logged-nowhere-${Date.now()}@example.com`;
    const signup = await t.request('POST', '/v1/account', { body: { email } });
    expect(signup.status, signup.text).toBe(201);
    const apiKey: string = signup.body.apiKey;
    const tokens = await connectApp(t, apiKey);
    const texts = ['A draft whose words are private 7f3a', 'Another private text c91d written in the outage'];
    const draft = await t.request('POST', '/v1/posts', { key: apiKey, body: { text: texts[0] } });
    expect(draft.status, draft.text).toBe(201);
    const secondEmail = `also-nowhere-${Date.now()}@example.com`;
    const second = await t.request('POST', '/v1/keys', {
      key: apiKey,
      body: { name: 'first used in the outage' },
    });
    expect(second.status, second.text).toBe(201);
    const secondKey: string = second.body.apiKey;

    /** Requests that carry every kind of secret to queries, answered while the database is out. */
    const volley = () =>
      Promise.all([
        t.request('GET', '/v1/posts', { key: secondKey }),
        t.request('GET', `/v1/posts/${draft.body.post.id}`, { key: apiKey }),
        t.request('POST', '/v1/posts', { key: apiKey, body: { text: texts[1] } }),
        t.request('PATCH', `/v1/posts/${draft.body.post.id}`, { key: apiKey, body: { text: texts[1] } }),
        t.request('POST', '/v1/account', { body: { email: secondEmail } }),
        t.request('POST', '/mcp', {
          headers: {
            authorization: `Bearer ${tokens.access_token}`,
            accept: 'application/json, text/event-stream',
          },
          body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        }),
        fetch(`${url}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: tokens.refresh_token,
            client_id: tokens.clientId,
          }),
        }).then(async (r) => ({ status: r.status, text: await r.text() })),
      ]);

    proxy.setFrozen(true);
    const frozen = await volley();
    expect(frozen.map((r) => r.status)).toContain(503);
    await proxy.setDown(true);
    const down = await volley();
    expect(down.map((r) => r.status)).toContain(503);
    await proxy.setDown(false);
    proxy.setFrozen(false);
    await until(
      'the database back',
      async () => (await t.request('GET', '/v1/posts', { key: apiKey })).status === 200,
      30_000,
    );

    const lines = app.output().split('\n').filter(Boolean);
    // The outage was logged (so the search below reads the lines that could leak) ...
    const failures = lines.filter((l) => /"level":(40|50)/.test(l) && /query|database|postgres/i.test(l));
    expect(failures.length, lines.slice(-20).join('\n')).toBeGreaterThan(0);
    // Among them the statements that ran with a key's digest and with a post's text.
    expect(failures.some((l) => l.includes('where \\"api_keys\\".\\"key_hash\\" = $1'))).toBe(true);
    expect(failures.some((l) => l.includes('insert into \\"posts\\"'))).toBe(true);
    // ... and no line holds a secret or its digest.
    const secrets: Record<string, string> = {
      'API key': apiKey,
      'API key digest': sha256Hex(apiKey),
      'second API key': secondKey,
      'second API key digest': sha256Hex(secondKey),
      'access token': tokens.access_token,
      'access token digest': sha256Hex(tokens.access_token),
      'refresh token': tokens.refresh_token,
      'refresh token digest': sha256Hex(tokens.refresh_token),
      email,
      'second email': secondEmail,
      'post text': texts[0]!,
      'second post text': texts[1]!,
    };
    for (const [what, secret] of Object.entries(secrets)) {
      const leaking = lines.filter((l) => l.includes(secret));
      expect(leaking, `${what} in ${leaking.length} log lines:\n${leaking.slice(0, 3).join('\n')}`).toEqual(
        [],
      );
    }
  }, 120_000);
});

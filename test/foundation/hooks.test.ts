import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiRoutes } from '../../src/compose/routes.ts';
import { configWith } from '../../src/config/config.ts';
import type { AppDeps } from '../../src/context.ts';
import { buildApp } from '../../src/http/app.ts';
import { createDeps } from '../../src/server.ts';
import { freshDatabase } from '../helpers/app.ts';

/**
 * The auth, budget and idempotency hooks exercised through a real app with two extra routes
 * standing in for model-backed and idempotent endpoints.
 */
let deps: AppDeps;
let url: string;
let close: () => Promise<void>;
let runs = 0;

beforeAll(async () => {
  const db = await freshDatabase();
  const config = configWith({
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    DATABASE_URL: db?.url ?? 'memory://',
    REDIS_URL: process.env.REDIS_URL,
    RATE_LIMIT_MODEL_PER_MIN: '2',
  });
  deps = await createDeps(config, { kvPrefix: `test:hooks:${Date.now()}:` });
  const app = await buildApp(deps, apiRoutes);
  app.post(
    '/test/model',
    {
      config: { scope: 'write', modelBudget: true, idempotent: true },
      schema: { body: z.object({ n: z.number() }) },
    },
    async (request, reply) => {
      runs++;
      const { n } = request.body as { n: number };
      if (n < 0) return reply.status(400).send({ error: { code: 'invalid_request', message: 'negative' } });
      if (n === 7) await new Promise((r) => setTimeout(r, 300));
      return reply.status(201).send({ n, run: runs, at: Math.random() });
    },
  );
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  close = async () => {
    await app.close();
    await deps.kv.close();
    await deps.database.close();
    await db?.drop();
  };
});
afterAll(async () => {
  await close?.();
});

async function signup() {
  const res = await fetch(`${url}/v1/account`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `h${Math.random()}@example.com` }),
  });
  return ((await res.json()) as { apiKey: string }).apiKey;
}

function call(key: string, body: unknown, idem?: string) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${key}`,
    'content-type': 'application/json',
  };
  if (idem !== undefined) headers['idempotency-key'] = idem;
  return fetch(`${url}/test/model`, { method: 'POST', headers, body: JSON.stringify(body) });
}

describe('model-backed budget', () => {
  it('sets x-ratelimit-llm-* headers and answers 429 past the tighter budget', async () => {
    const key = await signup();
    const first = await call(key, { n: 1 });
    expect(first.status).toBe(201);
    expect(first.headers.get('x-ratelimit-llm-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-llm-remaining')).toBe('1');
    expect(first.headers.get('x-ratelimit-limit')).toBe('600');
    expect((await call(key, { n: 2 })).status).toBe(201);
    const third = await call(key, { n: 3 });
    expect(third.status).toBe(429);
    expect(((await third.json()) as { error: { message: string } }).error.message).toMatch(/model-backed/);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = await fetch(`${url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
    expect(other.status).toBe(200);
    // One request unit per request, whichever path took the model unit (lease or store).
    expect(other.headers.get('x-ratelimit-remaining')).toBe('596');
    expect(other.headers.get('x-ratelimit-llm-limit')).toBeNull();
  });
});

describe('Idempotency-Key', () => {
  it('replays the first 2xx verbatim with idempotent-replay and runs the handler once', async () => {
    const key = await signup();
    const before = runs;
    const first = await call(key, { n: 5 }, 'order-1');
    const firstBody = await first.text();
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replay')).toBeNull();
    const replay = await call(key, { n: 5 }, 'order-1');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replay')).toBe('true');
    expect(await replay.text()).toBe(firstBody);
    expect(runs).toBe(before + 1);
  });

  it('scopes keys per API key', async () => {
    const a = await signup();
    const b = await signup();
    const before = runs;
    const mine = await call(a, { n: 1 }, 'shared');
    const other = await call(b, { n: 1 }, 'shared');
    expect(mine.status).toBe(201);
    expect(runs).toBe(before + 2);
    // The second account's call really ran (a fresh 201), and was not a replay of the first.
    expect(other.status).toBe(201);
    expect(other.headers.get('idempotent-replay')).toBeNull();
  });

  it('answers 422 for the same key with a different body', async () => {
    const key = await signup();
    await call(key, { n: 1 }, 'k');
    const res = await call(key, { n: 2 }, 'k');
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('idempotency_key_reused');
  });

  it('does not store non-2xx, so the key stays usable', async () => {
    const key = await signup();
    expect((await call(key, { n: -1 }, 'retry-me')).status).toBe(400);
    const res = await call(key, { n: -1 }, 'retry-me');
    expect(res.status).toBe(400);
    expect(res.headers.get('idempotent-replay')).toBeNull();
  });

  it('answers 409 to a request arriving while the first with that key still runs', async () => {
    const key = await signup();
    const before = runs;
    const [slow, concurrent] = await Promise.all([
      call(key, { n: 7 }, 'slow'),
      new Promise((r) => setTimeout(r, 100)).then(() => call(key, { n: 7 }, 'slow')),
    ]);
    expect(slow.status).toBe(201);
    expect(concurrent.status).toBe(409);
    expect(((await concurrent.json()) as { error: { code: string } }).error.code).toBe(
      'idempotency_in_progress',
    );
    expect(runs).toBe(before + 1);
  });

  it('rejects a key over 255 characters with 400', async () => {
    const key = await signup();
    const res = await call(key, { n: 1 }, 'x'.repeat(256));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    expect((await call(key, { n: 1 }, 'x'.repeat(255))).status).toBe(201);
  });
});

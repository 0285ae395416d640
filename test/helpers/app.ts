import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { type Config, configWith } from '../../src/config/config.ts';
import { type Service, type StartOptions, startService } from '../../src/server.ts';

/**
 * Test backends follow the environment: with DATABASE_URL / REDIS_URL set (as `.ci/run`
 * does on its second pass) every test app gets its own fresh PostgreSQL database and its own
 * Redis key prefix; otherwise an in-memory PGlite and the in-process store.
 */
/** Longer than any answer a test waits for (the slowest, a large import under CI load, takes seconds). */
const REQUEST_BOUND_MS = 60_000;
const SERVER_DATABASE_URL = process.env.DATABASE_URL;
const SERVER_REDIS_URL = process.env.REDIS_URL;

export const backend = SERVER_DATABASE_URL ? 'postgres' : 'pglite';

/** Creates an empty database on the test server and returns its URL and a dropper. */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  if (!SERVER_DATABASE_URL) return null;
  const name = `postkit_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(SERVER_DATABASE_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(SERVER_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const conn = postgres(SERVER_DATABASE_URL, { max: 1, onnotice: () => {} });
      await conn.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
      await conn.end();
    },
  };
}

export interface TestApp {
  service: Service;
  config: Config;
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** fetch against the app with an optional bearer key and JSON body. */
  request(
    method: string,
    path: string,
    options?: { key?: string; body?: unknown; headers?: Record<string, string>; raw?: string | Buffer },
  ): Promise<TestResponse>;
  /** Creates an account and returns its first key. */
  signup(email?: string): Promise<{ apiKey: string; accountId: string; keyId: string }>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

let counter = 0;

export async function startTestApp(
  env: Record<string, string | undefined> = {},
  options: StartOptions = {},
): Promise<TestApp> {
  const db = await freshDatabase();
  const config = configWith({
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: db?.url ?? 'memory://',
    REDIS_URL: SERVER_REDIS_URL,
    // Tests run many requests per key: lift the budgets unless a test sets its own.
    RATE_LIMIT_REQUESTS_PER_MIN: '100000',
    RATE_LIMIT_MODEL_PER_MIN: '100000',
    RATE_LIMIT_SIGNUPS_PER_HOUR: '100000',
    RATE_LIMIT_SIGNINS_PER_HOUR: '100000',
    AUTH_FAILURES_PER_MIN: '100000',
    ...env,
  });
  const service = await startService(config, {
    kvPrefix: `test:${randomBytes(6).toString('hex')}:`,
    autoStartRunner: false,
    ...options,
  });
  const url = service.url!;

  const request: TestApp['request'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    let body: string | Buffer | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    // Bounded, so a request the app never answers fails by name instead of as a test timeout.
    const res = await fetch(url + path, {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(REQUEST_BOUND_MS),
    }).catch((err: unknown) => {
      if ((err as Error).name !== 'TimeoutError') throw err;
      throw new Error(`${method} ${path} got no answer within ${REQUEST_BOUND_MS / 1000} s`, { cause: err });
    });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed, text };
  };

  return {
    service,
    config,
    url,
    request,
    async signup(email) {
      const res = await request('POST', '/v1/account', {
        body: { email: email ?? `user${++counter}-${randomBytes(4).toString('hex')}@example.com` },
      });
      if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${res.text}`);
      return { apiKey: res.body.apiKey, accountId: res.body.account.id, keyId: res.body.key.id };
    },
    async close() {
      await service.close();
      await db?.drop();
    },
  };
}

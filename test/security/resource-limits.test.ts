import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMPORT_ITEMS } from '../../src/features/history/history.schemas.ts';
import { MAX_LIVE_KEYS_PER_ACCOUNT } from '../../src/features/keys/keys.service.ts';
import { MAX_WEBHOOKS_PER_ACCOUNT } from '../../src/features/webhooks/webhooks.service.ts';
import { startTestApp } from '../helpers/app.ts';
import { BODY_CASES } from './bodies.ts';
import {
  type Field,
  fieldsOf,
  jsonBodySchema,
  type Operation,
  operations,
  overLong,
  reportedPath,
  resolve,
  sampleOf,
  setAt,
} from './openapi.ts';
import { type SecurityWorld, startSecurityWorld } from './world.ts';

/**
 * OWASP API4 (unrestricted resource consumption) and API6 (sensitive business flows): every
 * body, string, array, list page and header the API accepts is bounded, and the bounds are
 * enforced with a clear 4xx before any work is done. Generic over /v1/openapi.json.
 */

let s: SecurityWorld;
beforeAll(async () => {
  s = await startSecurityWorld();
});
afterEach(async () => {
  await s.assertNoLeaks();
});
afterAll(async () => {
  await s?.close();
});

const jsonBodyOps = () => operations(s.doc).filter((o) => jsonBodySchema(s.doc, o));
const concrete = (o: Operation) => o.path.replaceAll('{id}', 'pst_0000000000000000');
const keyFor = (o: Operation) =>
  Array.isArray(o.op.security) && o.op.security.length === 0 ? undefined : s.b.apiKey;
const detailPaths = (body: any): string[] =>
  (body?.error?.details ?? []).map((d: { path: string }) => d.path);

/** Largest string and array a request may carry anywhere (the JSON body limit is the outer bound). */
const MAX_STRING = 100_000;
const MAX_ITEMS = 100;
/**
 * The history import is the one bulk operation: it takes up to 1,000 past posts in a body of up
 * to 16 MiB (docs/history.md), so a year of posts fits one request. Its bounds are checked here
 * against those documented values instead of the general ones.
 */
const BULK_ITEMS: Record<string, number> = { 'POST /v1/history body.items': MAX_IMPORT_ITEMS };
const BODY_LIMITS: Record<string, number> = {
  'POST /v1/history': 16 * 1024 * 1024,
  // Up to 1,000 CSV rows (or 100 JSON items) of a few thousand characters each.
  'POST /v1/posts/bulk-schedule': 16 * 1024 * 1024,
};

describe('every request field is bounded', () => {
  function requestFields(): { op: Operation; where: 'body' | 'query' | 'path' | 'header'; field: Field }[] {
    const out: { op: Operation; where: 'body' | 'query' | 'path' | 'header'; field: Field }[] = [];
    for (const op of operations(s.doc)) {
      const body = jsonBodySchema(s.doc, op);
      for (const field of body ? fieldsOf(s.doc, body) : []) out.push({ op, where: 'body', field });
      for (const p of op.op.parameters ?? []) {
        for (const field of fieldsOf(s.doc, p.schema)) {
          out.push({ op, where: p.in, field: { ...field, path: p.name } });
        }
      }
    }
    return out;
  }

  it('has a maximum on every string and array (and sane ones)', () => {
    const unbounded: string[] = [];
    const fields = requestFields();
    // The walk itself must find the document's fields, or the check below would pass on nothing.
    expect(fields.filter((f) => f.field.kind === 'string').length).toBeGreaterThan(50);
    expect(fields.filter((f) => f.field.kind === 'array').length).toBeGreaterThan(5);
    for (const { op, where, field } of fields) {
      const label = `${op.key} ${where}.${field.path}`;
      if (field.kind === 'string' && !(field.schema.maxLength <= MAX_STRING)) unbounded.push(label);
      if (field.kind === 'array' && !(field.schema.maxItems <= (BULK_ITEMS[label] ?? MAX_ITEMS)))
        unbounded.push(label);
    }
    expect(unbounded).toEqual([]);
  });

  it('refuses one character or one item over each maximum with a 400 naming the field', async () => {
    let checked = 0;
    for (const { op, where, field } of requestFields()) {
      if (field.kind !== 'string' && field.kind !== 'array') continue;
      const label = `${op.key} ${where}.${field.path}`;
      const over =
        field.kind === 'string'
          ? overLong(field.schema)
          : Array.from({ length: field.schema.maxItems + 1 }, () => sampleOf(s.doc, field.schema.items));
      let path = concrete(op);
      let body: Record<string, any> | undefined;
      const headers: Record<string, string> = {};
      let expected: string;
      if (where === 'body') {
        const schema = jsonBodySchema(s.doc, op)!;
        body = sampleOf(s.doc, schema) as Record<string, any>;
        const itemSchema = (p: string) =>
          resolve(s.doc, fieldsOf(s.doc, schema).find((f) => f.path === p)!.schema.items);
        setAt(body, field.path, over, (p) => sampleOf(s.doc, itemSchema(p.slice(0, -2))));
        expected = reportedPath(field.path);
      } else if (where === 'path') {
        path = op.path.replace(`{${field.path}}`, over as string);
        expected = `params.${field.path}`;
      } else if (where === 'query') {
        path = `${concrete(op)}?${field.path}=${over as string}`;
        expected = `querystring.${field.path}`;
      } else {
        headers[field.path] = over as string;
        expected = `headers.${field.path}`;
      }
      if (op.path === '/v1/media') headers['content-type'] = 'image/png';
      const res = await s.t.request(op.method, path, {
        key: keyFor(op),
        body,
        headers,
        raw: op.path === '/v1/media' ? 'not an image' : undefined,
      });
      expect(res.status, `${label}: ${res.text}`).toBe(400);
      expect(detailPaths(res.body), label).toContain(expected);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe('request bodies', () => {
  const LIMIT = 1_048_576; // BODY_LIMIT_BYTES default

  it('the limit is the documented default', () => {
    expect(s.t.config.BODY_LIMIT_BYTES).toBe(LIMIT);
  });

  it('every JSON body operation (and the MCP endpoint) answers 413 to an oversized body, declared or streamed', async () => {
    const targets = [
      ...jsonBodyOps().map((o) => ({ method: o.method, path: concrete(o), op: o })),
      { method: 'POST', path: '/mcp', op: null },
    ];
    expect(targets.length).toBeGreaterThanOrEqual(19);
    for (const { method, path, op } of targets) {
      const limit = (op && BODY_LIMITS[op.key]) ?? LIMIT;
      const oversized = `{"x":"${'a'.repeat(limit)}"}`;
      const key = op ? keyFor(op) : s.b.apiKey;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (key) headers.authorization = `Bearer ${key}`;
      const declared = await fetch(s.t.url + path, { method, headers, body: oversized });
      const declaredBody = (await declared.json()) as { error: { code: string } };
      expect(declared.status, `${method} ${path}`).toBe(413);
      expect(declaredBody.error.code).toBe('payload_too_large');

      // Chunked, no Content-Length: the limit holds while the body streams in.
      const chunks = [oversized.slice(0, limit / 2), oversized.slice(limit / 2)];
      const stream = new ReadableStream({
        pull(controller) {
          const next = chunks.shift();
          if (next === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(next));
        },
      });
      const streamed = await fetch(s.t.url + path, {
        method,
        headers,
        body: stream,
        duplex: 'half',
      } as RequestInit);
      expect(streamed.status, `${method} ${path} (chunked)`).toBe(413);
      await streamed.body?.cancel();
    }
  });
});

describe('lists', () => {
  const limitOps = () =>
    operations(s.doc).filter((o) =>
      (o.op.parameters ?? []).some((p: any) => p.in === 'query' && p.name === 'limit'),
    );

  it('every limit has a maximum; paginated lists stop at 100', () => {
    const ops = limitOps();
    expect(ops.map((o) => o.key).sort()).toEqual(
      [
        'GET /v1/audit',
        'GET /v1/history',
        'GET /v1/media',
        'GET /v1/plans',
        'GET /v1/posts',
        'GET /v1/posts/{id}/metrics',
        'GET /v1/posts/{id}/metrics/history',
        'GET /v1/series',
        'GET /v1/webhooks/{id}/deliveries',
      ].sort(),
    );
    for (const o of ops) {
      const limit = o.op.parameters.find((p: any) => p.name === 'limit').schema;
      const ok = resolve(s.doc, o.op.responses['200'].content['application/json'].schema);
      const paginated = 'pagination' in (ok.properties ?? {});
      expect(limit.maximum, o.key).toBeLessThanOrEqual(paginated ? 100 : 1000);
      expect(limit.minimum, o.key).toBe(1);
    }
  });

  it('refuse limits over the maximum, zero, negative, fractional or not numbers, and negative offsets', async () => {
    const { a } = s;
    const realId = (o: Operation) => (o.path.includes('webhooks') ? a.webhookId : a.publishedId);
    for (const o of limitOps()) {
      const path = o.path.replace('{id}', realId(o));
      const params = o.op.parameters as any[];
      const max = params.find((p) => p.name === 'limit').schema.maximum;
      const bad = [
        `limit=${max + 1}`,
        'limit=0',
        'limit=-1',
        'limit=1.5',
        'limit=abc',
        'limit=1e9',
        `limit=1&limit=${max + 1}`,
      ];
      if (params.some((p) => p.name === 'offset')) bad.push('offset=-1', 'offset=abc', 'offset=1e12');
      for (const query of bad) {
        const res = await s.t.request('GET', `${path}?${query}`, { key: a.apiKey });
        expect(res.status, `${o.key}?${query}: ${res.text}`).toBe(400);
        expect(detailPaths(res.body), `${o.key}?${query}`).toContain(`querystring.${query.split('=')[0]}`);
      }
      const ok = await s.t.request('GET', `${path}?limit=${max}`, { key: a.apiKey });
      expect(ok.status, `${o.key}: ${ok.text}`).toBe(200);
    }
  });
});

describe('Idempotency-Key', () => {
  /** The operations that honour the header; the check below finds any other that does. */
  const IDEMPOTENT = [
    'POST /v1/posts',
    'POST /v1/posts/bulk-schedule',
    'POST /v1/voices',
    'POST /v1/voices/build',
    'POST /v1/score',
    'POST /v1/rewrite',
    'POST /v1/generate',
    'POST /v1/plan',
    'POST /v1/post-groups',
    'POST /v1/posts/{id}/approve',
    'POST /v1/plans/{id}/drafts',
  ];

  it('is refused over 255 characters wherever it is honoured, and ignored elsewhere', async () => {
    const { b } = s;
    for (const o of jsonBodyOps()) {
      const c = BODY_CASES[o.key]!;
      const body = c.body(b);
      const send = (idempotencyKey: string) =>
        s.t.request(o.method, c.path(b), {
          key: c.public ? undefined : b.apiKey,
          // Non-idempotent public signup needs a fresh email each time.
          body: c.public ? c.body(b) : body,
          headers: { 'idempotency-key': idempotencyKey },
        });
      const long = await send('k'.repeat(256));
      if (IDEMPOTENT.includes(o.key)) {
        expect(long.status, `${o.key}: ${long.text}`).toBe(400);
        expect(detailPaths(long.body)).toEqual(['headers.idempotency-key']);
        const fits = `${'k'.repeat(250)}${Math.random().toString(36).slice(2, 7)}`;
        const first = await send(fits);
        expect(first.status, `${o.key}: ${first.text}`).toBeLessThan(300);
        const again = await send(fits);
        expect(again.headers.get('idempotent-replay'), o.key).toBe('true');
      } else {
        expect(long.status, `${o.key} should ignore the header: ${long.text}`).toBeLessThan(300);
      }
    }
  });
});

describe('business flows', () => {
  it(`caps webhook endpoints at ${MAX_WEBHOOKS_PER_ACCOUNT} per account, so one event cannot fan out without bound`, async () => {
    const { apiKey } = await s.t.signup();
    for (let i = 0; i < MAX_WEBHOOKS_PER_ACCOUNT; i++) {
      const res = await s.t.request('POST', '/v1/webhooks', {
        key: apiKey,
        body: { url: `https://hooks.example.com/${i}` },
      });
      expect(res.status, res.text).toBe(201);
    }
    const over = await s.t.request('POST', '/v1/webhooks', {
      key: apiKey,
      body: { url: 'https://hooks.example.com/x' },
    });
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe('webhook_limit_reached');
  });

  it(`caps live API keys at ${MAX_LIVE_KEYS_PER_ACCOUNT} per account, so per-key budgets cannot be multiplied, even by concurrent requests`, async () => {
    const { apiKey } = await s.t.signup();
    const create = () => s.t.request('POST', '/v1/keys', { key: apiKey, body: { name: 'more' } });
    // The signup key, plus creations up to five short of the cap.
    for (let i = 1; i < MAX_LIVE_KEYS_PER_ACCOUNT - 5; i++) expect((await create()).status).toBe(201);
    // Five places left, ten concurrent requests: exactly five get a key.
    const burst = await Promise.all(Array.from({ length: 10 }, create));
    expect(burst.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = burst.filter((r) => r.status !== 201);
    expect(refused.map((r) => r.status)).toEqual(Array(5).fill(409));
    expect(refused[0]!.body.error.code).toBe('key_limit_reached');
    // Rotation swaps one live key for another, so it still works at the cap.
    const victim = burst.find((r) => r.status === 201)!.body.key.id;
    const rotated = await s.t.request('POST', `/v1/keys/${victim}/rotate`, { key: apiKey });
    expect(rotated.status).toBe(201);
    expect((await create()).status).toBe(409);
    // Revoking one frees a place.
    expect((await s.t.request('DELETE', `/v1/keys/${rotated.body.key.id}`, { key: apiKey })).status).toBe(
      200,
    );
    expect((await create()).status).toBe(201);
    const live = (await s.t.request('GET', '/v1/keys', { key: apiKey })).body.keys.filter(
      (k: { revokedAt: number | null }) => k.revokedAt === null,
    );
    expect(live).toHaveLength(MAX_LIVE_KEYS_PER_ACCOUNT);
  });

  it('limits account creation per IP, counting refused bodies, and forwarding headers do not reset it', async () => {
    const app = await startTestApp({ RATE_LIMIT_SIGNUPS_PER_HOUR: '3' });
    try {
      const signup = (body: unknown, headers: Record<string, string> = {}) =>
        app.request('POST', '/v1/account', { body, headers });
      expect((await signup({ email: 'one@example.com' })).status).toBe(201);
      expect((await signup({ email: 'not an email' })).status).toBe(400);
      expect((await signup({ email: 'two@example.com' })).status).toBe(201);
      const spoofs: Record<string, string>[] = [
        { 'x-forwarded-for': '203.0.113.7' },
        { 'x-real-ip': '203.0.113.8' },
        { forwarded: 'for=203.0.113.9' },
        {},
      ];
      for (const spoof of spoofs) {
        const res = await signup({ email: `three-${Object.keys(spoof)[0] ?? 'plain'}@example.com` }, spoof);
        expect(res.status, JSON.stringify(spoof)).toBe(429);
        expect(res.body.error.code).toBe('rate_limited');
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      // Only account creation is limited this way: the accounts made still work.
      const list = await app.request('GET', '/v1/meta');
      expect(list.status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

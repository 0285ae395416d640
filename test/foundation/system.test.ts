import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIMENSION_WEIGHTS } from '../../src/scoring/learned/model.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('public service endpoints', () => {
  it('GET /healthz answers plain ok', async () => {
    const res = await t.request('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.text).toBe('ok');
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('GET /v1/health reports each dependency, and 503 with the same shape when one is down', async () => {
    const ok = await t.request('GET', '/v1/health');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      status: 'ok',
      checks: { database: { status: 'ok', latencyMs: expect.any(Number) }, kv: { status: 'ok' } },
    });
    const kv = t.service.deps.kv;
    const realPing = kv.ping.bind(kv);
    kv.ping = async () => {
      throw new Error('connection refused');
    };
    try {
      const degraded = await t.request('GET', '/v1/health');
      expect(degraded.status).toBe(503);
      expect(degraded.body).toMatchObject({
        status: 'degraded',
        checks: { database: { status: 'ok' }, kv: { status: 'degraded', error: 'connection refused' } },
      });
    } finally {
      kv.ping = realPing;
    }
  });

  it('GET /v1/meta publishes the contract', async () => {
    const res = await t.request('GET', '/v1/meta');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      apiVersion: '0.16',
      maxPostLength: 3000,
      schemaVersion: expect.any(String),
    });
    expect(
      res.body.platforms.map((p: Record<string, unknown>) => [p.id, p.maxPostLength, p.publishing]),
    ).toEqual([
      ['platformA', 3000, true],
      ['platformB', 280, false],
    ]);
    // Each platform's profile, as the console and client programs read it (additive fields).
    const characters = (unit: string) => ({ unit, urlWeight: null });
    const weighted = { unit: 'codePoint', urlWeight: 23 };
    const part280 = { max: 280, counting: weighted, counted: 'weighted characters (a URL counts 23)' };
    expect(res.body.platforms[0]).toMatchObject({
      displayName: 'platformA',
      parts: {
        post: { max: 3000, counting: characters('utf16'), counted: 'characters' },
        reply: null,
        comment: { max: 1250, counting: characters('codePoint'), counted: 'characters' },
      },
      threads: null,
      firstComment: 'comment',
      media: { summary: '1-20 images, or one video, or one PDF document', maxImages: 20 },
      fold: { chars: 210, lines: 3 },
    });
    expect(res.body.platforms[1]).toMatchObject({
      displayName: 'platformB',
      parts: { post: part280, reply: part280, comment: part280 },
      threads: { maxFollowUps: 24 },
      firstComment: 'reply',
      media: { summary: '1-4 images, or one video or GIF (no PDF)', maxImages: 4 },
      fold: null,
    });
    expect(res.body.mediaKinds).toContain('multi-image');
    expect(res.body.followerBands).toHaveLength(5);
    const weights = Object.fromEntries(
      res.body.dimensions.map((d: { id: string; weight: number }) => [d.id, d.weight]),
    );
    expect(weights).toEqual(DIMENSION_WEIGHTS);
    expect(Object.values(weights).reduce((a: number, b) => a + (b as number), 0)).toBeCloseTo(1, 10);
    expect(res.body.capabilities).toMatchObject({
      scoringEngine: 'heuristic',
      publishing: false,
      database: t.service.deps.database.kind,
      kv: t.service.deps.kv.kind,
      mediaStorage: 'filesystem',
    });
  });

  it('GET /v1/openapi.json documents every route with its errors', async () => {
    const res = await t.request('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.version).toBe('0.16');
    const publicOps = new Set([
      'get /healthz',
      'get /v1/health',
      'get /v1/meta',
      'post /v1/account',
      'post /v1/invitations/preview',
      'post /v1/invitations/accept',
      'get /v1/channels/platformA/callback',
      'get /v1/channels/platformB/callback',
    ]);
    let operations = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(res.body.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        operations++;
        expect(op.summary, `${method} ${path} summary`).toBeTruthy();
        const statuses = Object.keys(op.responses);
        // A route that exists only to answer 405 (GET /mcp on a stateless server) has no success.
        if (statuses.join() === '405') continue;
        expect(
          statuses.some((s) => s.startsWith('2')),
          `${method} ${path} success`,
        ).toBe(true);
        if (!publicOps.has(`${method} ${path}`)) {
          expect(statuses, `${method} ${path} documents 401`).toContain('401');
          expect(op.responses['401'].content['application/json'].schema.$ref).toBe(
            '#/components/schemas/Error',
          );
        }
      }
    }
    expect(operations).toBeGreaterThanOrEqual(7);
  });

  it('GET /docs renders the reference page without a key', async () => {
    const page = await t.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html');
    const init = await t.request('GET', '/docs/static/swagger-initializer.js');
    expect(init.status).toBe(200);
  });

  it('answers unknown routes with the error shape and echoes a sane request id', async () => {
    const res = await t.request('GET', '/v1/nope', { headers: { 'x-request-id': 'trace-123' } });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'not_found', requestId: 'trace-123' });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
    const weird = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(weird.headers.get('x-request-id')).toMatch(/^req_/);
  });
});

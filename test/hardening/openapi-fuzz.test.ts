import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  encodePathSegment,
  HOSTILE_CHARACTERS,
  hostileString,
  invalidValue,
  type SchemaContext,
  validValue,
} from './schema-arbitrary.ts';

/**
 * Property: for every operation in /v1/openapi.json, generated bodies, query strings, path ids
 * and headers (valid and invalid, with NUL, lone surrogates, bidi controls and overlong values in
 * every string) never produce a 5xx; every error answer is the envelope
 * `{error: {code, message, details?, requestId}}`; every 2xx matches the documented schema.
 */
let t: TestApp;
let sandbox: Sandbox;
let doc: any;
let key: string;
const knownIds = new Set<string>();
const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({
  strict: false,
  allErrors: true,
  validateFormats: true,
});
(addFormats as unknown as typeof addFormats.default)(ajv);

const SKIP = new Set(['post /v1/media', 'post /mcp', 'get /mcp/tools/list']);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const ENVELOPE_KEYS = new Set(['code', 'message', 'details', 'requestId']);

beforeAll(async () => {
  // Everything configured (vault, platform app, sandbox platform), so no route can fall back
  // to 503 not_configured and hide its behaviour on bad input.
  sandbox = await startSandbox({});
  t = await startTestApp({
    FREE_PLAN_MODEL_QUOTA: '100000',
    KIT_VAULT_KEY: Buffer.alloc(32, 7).toString('base64'),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    PLATFORMA_BACKOFF_SCALE: '0.001',
    ...sandbox.platformA.env('http://127.0.0.1:9/v1/channels/platformA/callback'),
    // Every platform the sandbox emulates is configured too (platformB once it exists).
    ...(sandbox as { platformB?: { env(redirectUri: string): Record<string, string> } }).platformB?.env(
      'http://127.0.0.1:9/v1/channels/platformB/callback',
    ),
  });
  key = (await t.signup()).apiKey;
  doc = (await t.request('GET', '/v1/openapi.json')).body;
  ajv.addSchema({ ...doc, $id: 'openapi' });
});
afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

function collectIds(value: unknown) {
  if (Array.isArray(value)) value.forEach(collectIds);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if ((k === 'id' || k.endsWith('Id')) && typeof v === 'string' && /^[a-z]{3}_/.test(v)) knownIds.add(v);
      else collectIds(v);
    }
  }
}

function operations(): [string, string, any][] {
  const out: [string, string, any][] = [];
  for (const [path, item] of Object.entries<any>(doc?.paths ?? {})) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!SKIP.has(`${method} ${path}`)) out.push([method, path, op]);
    }
  }
  return out;
}

describe('generated traffic against every documented operation', () => {
  it('finds operations to exercise', () => {
    expect(operations().length).toBeGreaterThan(10);
  });

  it('never answers 5xx, always uses the error shape, and keeps 2xx bodies to their schema', async () => {
    const ctx: SchemaContext = { components: doc.components?.schemas ?? {}, knownIds: () => [...knownIds] };
    for (const [method, path, op] of operations()) {
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const queryParams = (op.parameters ?? []).filter((p: any) => p.in === 'query');
      const query = fc.record(
        Object.fromEntries(
          queryParams.map((p: any) => [
            p.name,
            fc.oneof(
              validValue(p.schema ?? {}, ctx, 0, p.name),
              fc.constantFrom('-1', '1e9', 'abc', '', '999999999999', ...HOSTILE_CHARACTERS),
              hostileString(0, 300),
            ),
          ]),
        ),
        { requiredKeys: [] },
      );
      const body = bodySchema
        ? fc.oneof(validValue(bodySchema, ctx), invalidValue(bodySchema, ctx))
        : fc.constant(undefined);
      const idem = fc.option(fc.oneof(fc.string({ maxLength: 300 }), fc.uuid()), { nil: undefined });
      const id = fc.oneof(
        fc.constantFrom(...(knownIds.size ? [...knownIds] : ['x'])),
        hostileString(1, 80),
        fc.constant('z'.repeat(300)),
      );

      await fc.assert(
        fc.asyncProperty(body, query, idem, id, async (b, q, idemKey, pathId) => {
          const url = path.replace('{id}', encodePathSegment(pathId || 'x'));
          const qs = new URLSearchParams(
            Object.entries(q as Record<string, unknown>)
              .filter(([, v]) => v !== undefined)
              .map(([k, v]): [string, string] => [k, String(v)]),
          ).toString();
          const headers: Record<string, string> = {};
          if (idemKey !== undefined) headers['idempotency-key'] = idemKey;
          const res = await t.request(method.toUpperCase(), qs ? `${url}?${qs}` : url, {
            key,
            body: b,
            headers,
          });
          const label = `${method.toUpperCase()} ${url}?${qs} ${JSON.stringify(b)?.slice(0, 300)} -> ${res.status} ${res.text.slice(0, 300)}`;
          expect(res.status, label).toBeLessThan(500);
          if (res.status >= 400) {
            expect(res.body?.error?.code, label).toMatch(/^[a-z_]+$/);
            expect(res.body?.error?.message, label).toEqual(expect.any(String));
            expect(
              Object.keys(res.body.error).filter((k) => !ENVELOPE_KEYS.has(k)),
              label,
            ).toEqual([]);
            expect(res.body.statusCode, label).toBeUndefined();
            expect(res.body.error.requestId, label).toBe(res.headers.get('x-request-id'));
          } else {
            collectIds(res.body);
            const schema = op.responses?.[String(res.status)]?.content?.['application/json']?.schema;
            expect(op.responses?.[String(res.status)], `${label}: status not documented`).toBeDefined();
            if (schema && (res.headers.get('content-type') ?? '').includes('json')) {
              const validate = ajv.compile({
                $ref: `openapi#/paths/${path.replaceAll('/', '~1')}/${method}/responses/${res.status}/content/application~1json/schema`,
              });
              expect(validate(res.body), `${label}: ${ajv.errorsText(validate.errors)}`).toBe(true);
            }
          }
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
    }
  }, 600_000);
});

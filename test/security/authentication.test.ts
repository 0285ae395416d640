import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/features/keys/key-format.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { sampleFile } from '../media/fixtures.ts';
import { type Doc, isPublic, type Operation, operations, registeredRoutes } from './openapi.ts';

/**
 * OWASP API2 (broken authentication), API5 (function level authorization), API8 (security
 * misconfiguration) and API9 (inventory), generic over /v1/openapi.json and over the routes the
 * server really registered.
 */

let t: TestApp;
let doc: Doc;
let live: string;
let revoked: string;
let rotatedAway: string;

beforeAll(async () => {
  t = await startTestApp({ KIT_VAULT_KEY: Buffer.alloc(32, 9).toString('base64') });
  doc = (await t.request('GET', '/v1/openapi.json')).body;
  live = (await t.signup()).apiKey;
  const doomed = await t.request('POST', '/v1/keys', { key: live, body: { name: 'doomed' } });
  revoked = doomed.body.apiKey;
  // Used once before revocation, so the in-process key cache holds it: revocation must evict it.
  expect((await t.request('GET', '/v1/account', { key: revoked })).status).toBe(200);
  expect((await t.request('DELETE', `/v1/keys/${doomed.body.key.id}`, { key: live })).status).toBe(200);
  const old = await t.request('POST', '/v1/keys', { key: live, body: { name: 'rotated' } });
  rotatedAway = old.body.apiKey;
  expect((await t.request('GET', '/v1/account', { key: rotatedAway })).status).toBe(200);
  expect((await t.request('POST', `/v1/keys/${old.body.key.id}/rotate`, { key: live })).status).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

/** The only operations anyone may call without a key. Adding one is a reviewed decision. */
const PUBLIC = [
  'GET /healthz',
  'GET /v1/health',
  'GET /v1/meta',
  'POST /v1/account',
  // Its token is the credential: single use, 7 days, throttled per address (docs/teams.md).
  'POST /v1/invitations/accept',
  // The same token shows what it would join, nothing once it is used, expired or withdrawn.
  'POST /v1/invitations/preview',
  // Email and password are the credential: throttled per address and per email (docs/security.md).
  'POST /v1/sessions',
  'GET /v1/channels/platformA/callback',
  'GET /v1/channels/platformB/callback',
];
/**
 * Served but deliberately not in the document: the document itself, its reference page, the
 * web console's page and built files (src/http/console.ts: public, not API), and the MCP
 * transport's 405 answers to GET and DELETE /mcp (public, not REST operations).
 */
const UNDOCUMENTED =
  /^(GET|HEAD) (\/v1\/openapi\.json|\/docs(\/.*)?|\/|\/assets\/(\{file\}|[\w.-]+))$|^(GET|DELETE) \/mcp$/;
/**
 * The OAuth protocol endpoints of the MCP authorization (src/features/oauth/oauth.routes.ts):
 * public by the protocol, described by their own RFC 8414 / RFC 9728 metadata, and answering in
 * OAuth's error shape rather than the API's, so they are not REST operations of the document.
 */
const OAUTH_PROTOCOL =
  /^(GET|HEAD) (\/mcp)?\/\.well-known\/(oauth-protected-resource(\/mcp)?|oauth-authorization-server)$|^GET \/oauth\/authorize$|^HEAD \/oauth\/authorize$|^POST \/oauth\/(register|token|revoke)$/;

const protectedOps = () => operations(doc).filter((o) => !isPublic(o));
const concrete = (o: Operation) => o.path.replaceAll('{id}', 'pst_0000000000000000');

/** Wrong credentials of every kind: none may get past the auth hook. */
const badAuthorizations = () => ({
  missing: undefined,
  'empty bearer': 'Bearer ',
  'basic auth': `Basic ${Buffer.from(`user:${live}`).toString('base64')}`,
  'key without scheme': live,
  'wrong shape': 'Bearer kit_sk_short',
  'bad checksum': `Bearer ${live.slice(0, -1)}${live.endsWith('A') ? 'B' : 'A'}`,
  'well-formed unknown key': `Bearer ${generateApiKey()}`,
  'revoked key': `Bearer ${revoked}`,
  'key replaced by rotation': `Bearer ${rotatedAway}`,
  'two keys': `Bearer ${live} ${live}`,
});

async function send(o: Operation, authorization: string | undefined, method = o.method) {
  const headers: Record<string, string> = {};
  if (authorization !== undefined) headers.authorization = authorization;
  // A body that would not validate: authentication must come first and say nothing about it.
  const hasBody =
    method !== 'GET' && method !== 'HEAD' && (o.op.requestBody !== undefined || o.path === '/mcp');
  if (hasBody) headers['content-type'] = o.path === '/v1/media' ? 'image/png' : 'application/json';
  const raw = !hasBody ? undefined : o.path === '/v1/media' ? sampleFile.png(64) : '{"surely": "invalid"';
  return t.request(method, concrete(o), { headers, raw });
}

describe('authentication', () => {
  it('exactly the reviewed operations are public', () => {
    expect(
      operations(doc)
        .filter(isPublic)
        .map((o) => o.key)
        .sort(),
    ).toEqual([...PUBLIC].sort());
  });

  it('every other operation (and its HEAD) answers 401 unauthorized to every kind of bad credential', async () => {
    const ops = protectedOps();
    expect(ops.length).toBeGreaterThan(50);
    for (const o of ops) {
      for (const [kind, authorization] of Object.entries(badAuthorizations())) {
        for (const method of o.method === 'GET' ? ['GET', 'HEAD'] : [o.method]) {
          const res = await send(o, authorization, method);
          const label = `${method} ${o.path} with ${kind}`;
          expect(res.status, `${label}: ${res.text}`).toBe(401);
          if (method === 'HEAD') continue;
          expect(res.body.error, label).toMatchObject({
            code: 'unauthorized',
            requestId: expect.any(String),
          });
          // Nothing but the auth verdict: no validation details, no budget headers.
          expect(res.body.error.details, label).toBeUndefined();
          expect(res.headers.get('x-ratelimit-remaining'), label).toBeNull();
        }
      }
    }
  });

  it('a revoked key is indistinguishable from one that never existed', async () => {
    const o = operations(doc).find((x) => x.key === 'GET /v1/account')!;
    const strip = (body: any) => ({ ...body.error, requestId: undefined });
    const unknown = await send(o, `Bearer ${generateApiKey()}`);
    for (const key of [revoked, rotatedAway]) {
      expect(strip((await send(o, `Bearer ${key}`)).body)).toEqual(strip(unknown.body));
    }
  });

  it('the public operations answer without a key', async () => {
    for (const key of PUBLIC) {
      const o = operations(doc).find((x) => x.key === key)!;
      const res = await send(o, undefined);
      // Without a key a public operation either serves or refuses the request itself (a 4xx for
      // a missing body or query); never an authentication refusal, and never a server error.
      expect(res.status, `${key}: ${res.text}`).toBeGreaterThanOrEqual(200);
      expect(res.status, `${key}: ${res.text}`).toBeLessThan(500);
      expect([401, 403], `${key}: ${res.text}`).not.toContain(res.status);
    }
  });

  it('the live key still works (the 401s above are about the credential)', async () => {
    const res = await t.request('GET', '/v1/account', { key: live });
    expect(res.status).toBe(200);
  });

  it('a key is never accepted from the query string or a cookie', async () => {
    for (const path of [
      `/v1/account?api_key=${live}`,
      `/v1/account?key=${live}`,
      `/v1/account?access_token=${live}`,
    ]) {
      expect((await t.request('GET', path)).status).toBe(401);
    }
    const cookie = await t.request('GET', '/v1/account', {
      headers: { cookie: `apiKey=${live}; token=${live}` },
    });
    expect(cookie.status).toBe(401);
  });
});

describe('inventory', () => {
  it('every served route is documented, and every documented operation is served', () => {
    const served = registeredRoutes(t.service.app!.printRoutes({ commonPrefix: false }));
    const documented = new Set(operations(doc).map((o) => o.key));
    const undocumented = [...served].filter(
      (r) => !r.startsWith('HEAD ') && !documented.has(r) && !UNDOCUMENTED.test(r) && !OAUTH_PROTOCOL.test(r),
    );
    expect(undocumented).toEqual([]);
    expect([...documented].filter((d) => !served.has(d))).toEqual([]);
    // HEAD exists only as the automatic twin of a GET (same hooks, so the same auth).
    const heads = [...served].filter((r) => r.startsWith('HEAD ')).map((r) => r.replace('HEAD ', 'GET '));
    expect(heads.filter((h) => !served.has(h))).toEqual([]);
  });

  it('no sandbox, admin or debug surface is mounted on the API', async () => {
    const served = [...registeredRoutes(t.service.app!.printRoutes({ commonPrefix: false }))];
    expect(served.filter((r) => /admin|sandbox|debug|internal|__/i.test(r))).toEqual([]);
    for (const path of ['/admin', '/v1/admin', '/_sandbox/members', '/debug', '/metrics', '/v2/account']) {
      const res = await t.request('GET', path, { key: live });
      expect(res.status, path).toBe(404);
    }
  });
});

describe('misconfiguration', () => {
  it('responses name no server software, and no cross-origin access is granted', async () => {
    const res = await t.request('GET', '/v1/account', {
      key: live,
      headers: { origin: 'https://evil.example' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('server')).toBeNull();
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const preflight = await t.request('OPTIONS', '/v1/posts', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('an unexpected failure answers a generic 500 that leaks nothing of the cause', async () => {
    const { apiKey } = await t.signup();
    const upload = await t.request('POST', '/v1/media', {
      key: apiKey,
      raw: sampleFile.png(128),
      headers: { 'content-type': 'image/png' },
    });
    expect(upload.status).toBe(201);
    const storage = t.service.deps.storage;
    const realGet = storage.get.bind(storage);
    storage.get = async () => {
      throw new Error('EACCES /srv/postkit/secret-volume/acc_internal password=hunter2');
    };
    try {
      const res = await t.request('GET', `/v1/media/${upload.body.media.id}/content`, { key: apiKey });
      expect(res.status).toBe(500);
      expect(res.body.error).toMatchObject({ code: 'internal_error', requestId: expect.any(String) });
      expect(res.text).not.toMatch(/EACCES|secret-volume|hunter2|stack|at .*\.ts/);
    } finally {
      storage.get = realGet;
    }
  });

  it('the public readiness probe does not reveal internal addresses or credentials of its dependencies', async () => {
    const kv = t.service.deps.kv;
    const db = t.service.deps.database;
    const realKv = kv.ping.bind(kv);
    const realDb = db.ping.bind(db);
    const boom = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});
    kv.ping = async () => {
      throw boom('connect ECONNREFUSED 10.20.30.40:6379', 'ECONNREFUSED');
    };
    db.ping = async () => {
      throw boom('password authentication failed for user "postkit_admin" at db.internal.example:5432');
    };
    try {
      const res = await t.request('GET', '/v1/health');
      expect(res.status).toBe(503);
      expect(res.body.checks.kv.status).toBe('degraded');
      expect(res.body.checks.database.status).toBe('degraded');
      expect(res.text).not.toMatch(/10\.20\.30\.40|6379|5432|postkit_admin|db\.internal/);
    } finally {
      kv.ping = realKv;
      db.ping = realDb;
    }
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sampleFile } from '../media/fixtures.ts';
import { BODY_CASES } from './bodies.ts';
import { fieldsOf, jsonBodySchema, operations } from './openapi.ts';
import { type SecurityWorld, startSecurityWorld } from './world.ts';

/**
 * OWASP API3 (broken object property level authorization), the write half: no request can set
 * a field the server owns. Every JSON body is strict at every level, so each server-owned field
 * is refused with a 400 naming it; were one ever accepted, the resource must not carry it.
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

/** Server-owned fields, each with a value that would be visible in the response if applied. */
const serverOwned = (victimAccountId: string): Record<string, unknown> => ({
  id: 'pst_attacker0000000001',
  accountId: victimAccountId,
  account: { id: victimAccountId, plan: 'enterprise' },
  status: 'published',
  publishedAt: 424242424242,
  platformPostId: 'urn:li:share:424242',
  platformUrl: 'https://attacker.example/424242',
  platformPostIds: ['urn:li:share:424242'],
  threadPostIds: ['424242'],
  firstCommentId: 'urn:li:comment:424242',
  createSentAt: 424242424242,
  platformUserId: 'attacker-member',
  createdAt: 424242424242,
  updatedAt: 424242424242,
  scheduledFor: 424242424242,
  error: 'attacker-error',
  plan: 'enterprise',
  revokedAt: 424242424242,
  lastUsedAt: 424242424242,
  keyPrefix: 'kit_sk_attacker',
  keyHash: 'attacker-hash',
  apiKey: 'kit_sk_attacker',
  secret: 'whsec_attacker_chosen_secret_value',
  secretSealed: 'attacker-sealed',
  storageKey: '../../attacker',
  sha256: 'attacker-sha',
  size: 424242,
  scopes: ['attacker-scope'],
  expiresAt: 424242424242,
  accessToken: 'attacker-token',
  claimedBy: 'attacker-process',
  publishAttempts: 4242,
  role: 'admin',
  isAdmin: true,
});

const SENTINELS = ['attacker', '424242', 'enterprise'];

const jsonBodyOps = () => operations(s.doc).filter((o) => jsonBodySchema(s.doc, o));

describe('request bodies', () => {
  it('every JSON body operation has a case', () => {
    const ops = jsonBodyOps().map((o) => o.key);
    expect(ops.length).toBeGreaterThanOrEqual(18);
    expect(ops.filter((k) => !(k in BODY_CASES))).toEqual([]);
    expect(Object.keys(BODY_CASES).filter((k) => !ops.includes(k))).toEqual([]);
  });

  it('are closed objects at every level (additionalProperties: false)', () => {
    const open: string[] = [];
    for (const o of jsonBodyOps()) {
      for (const f of fieldsOf(s.doc, jsonBodySchema(s.doc, o)!)) {
        if (f.kind === 'object' && f.schema.additionalProperties !== false)
          open.push(`${o.key} ${f.path || '(body)'}`);
      }
    }
    expect(open).toEqual([]);
  });

  it('refuse every server-owned field with a 400 naming it, at the top level and inside items and variants', async () => {
    const { a, b } = s;
    for (const o of jsonBodyOps()) {
      const c = BODY_CASES[o.key]!;
      const props = Object.keys(jsonBodySchema(s.doc, o)!.properties ?? {});
      for (const [field, value] of Object.entries(serverOwned(a.accountId))) {
        if (props.includes(field)) continue; // a real request field of this operation
        const body = { ...c.body(b), [field]: value };
        if (body.items) body.items = [{ ...body.items[0], [field]: value }];
        if (body.variants) body.variants = [{ ...body.variants[0], [field]: value }];
        const res = await s.t.request(o.method, c.path(b), { key: c.public ? undefined : b.apiKey, body });
        const label = `${o.key} + ${field}`;
        if (res.status < 300) {
          // Accepted: then it must have been ignored, never applied.
          for (const sentinel of SENTINELS) expect(res.text, label).not.toContain(sentinel);
          continue;
        }
        expect(res.status, `${label}: ${res.text}`).toBe(400);
        expect(res.body.error.code).toBe('invalid_request');
        const paths = res.body.error.details.map((d: { path: string }) => d.path);
        expect(paths, label).toContain(field);
        if (body.items) expect(paths, label).toContain(`items[0].${field}`);
        if (body.variants) expect(paths, label).toContain(`variants[0].${field}`);
      }
      // The unmodified body is accepted: the refusals above are about the extra fields.
      const ok = await s.t.request(o.method, c.path(b), {
        key: c.public ? undefined : b.apiKey,
        body: c.body(b),
      });
      expect(ok.status, `${o.key}: ${ok.text}`).toBeLessThan(300);
    }
  });

  it('refuse prototype pollution keys', async () => {
    const { b } = s;
    for (const raw of [
      '{"name":"x","__proto__":{"plan":"enterprise"}}',
      '{"name":"x","constructor":{"prototype":{"plan":"enterprise"}}}',
    ]) {
      const res = await s.t.request('POST', '/v1/brands', {
        key: b.apiKey,
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
    const me = await s.t.request('GET', '/v1/account', { key: b.apiKey });
    expect(me.body.account.plan).toBe('free');
  });

  it('do not let a state change or a platform result be written through PATCH', async () => {
    const { b } = s;
    const post = (await s.t.request('POST', '/v1/posts', { key: b.apiKey, body: { text: 'still a draft' } }))
      .body.post;
    for (const patch of [
      { status: 'published' },
      { publishedAt: 1 },
      { platformPostId: 'urn:li:share:1' },
      { platformPostIds: ['urn:li:share:1'] },
      { firstCommentId: 'urn:li:comment:1' },
      { scheduledFor: Date.now() + 60_000 },
    ]) {
      const res = await s.t.request('PATCH', `/v1/posts/${post.id}`, { key: b.apiKey, body: patch });
      expect(res.status, res.text).toBe(400);
    }
    const after = await s.t.request('GET', `/v1/posts/${post.id}`, { key: b.apiKey });
    expect(after.body.post).toEqual(post);
  });
});

describe('query strings and tools', () => {
  it('an upload cannot choose its owner or storage key through the query string', async () => {
    const { a, b } = s;
    const res = await s.t.request(
      'POST',
      `/v1/media?accountId=${a.accountId}&storageKey=../../escape&id=med_attacker`,
      { key: b.apiKey, raw: sampleFile.png(256), headers: { 'content-type': 'image/png' } },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.media.accountId).toBe(b.accountId);
    expect(res.body.media.id).not.toBe('med_attacker');
    const listed = await s.t.request('GET', '/v1/media?limit=100', { key: a.apiKey });
    expect(listed.body.media.map((m: { id: string }) => m.id)).not.toContain(res.body.media.id);
  });

  it('an agent tool refuses server-owned arguments too', async () => {
    const { a, b } = s;
    const res = await s.t.request('POST', '/mcp', {
      key: b.apiKey,
      headers: { accept: 'application/json, text/event-stream' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'create_post',
          arguments: { text: 'tool', accountId: a.accountId, status: 'published' },
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.result.isError).toBe(true);
    const error = JSON.parse(res.body.result.content[1].text).error;
    expect(error.code).toBe('invalid_request');
    expect(error.details.map((d: { path: string }) => d.path).sort()).toEqual(['accountId', 'status']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../../src/compose/routes.ts';
import { buildApp } from '../../src/http/app.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('API key scopes on REST routes', () => {
  it('keys hold all three scopes unless created with fewer', async () => {
    const { apiKey } = await t.signup();
    const me = await t.request('GET', '/v1/account', { key: apiKey });
    expect(me.body.key.scopes).toEqual(['read', 'write', 'publish']);
    const dash = await t.request('POST', '/v1/keys', {
      key: apiKey,
      body: { name: 'dashboard', scopes: ['read'] },
    });
    expect(dash.status).toBe(201);
    expect(dash.body.key.scopes).toEqual(['read']);
    // Repeats and order do not matter.
    const two = await t.request('POST', '/v1/keys', {
      key: apiKey,
      body: { scopes: ['write', 'read', 'write'] },
    });
    expect(two.body.key.scopes).toEqual(['read', 'write']);
  });

  it('a read-only key reads, and is refused writing and publishing with 403 naming the scope', async () => {
    const { apiKey } = await t.signup();
    const draft = await t.request('POST', '/v1/posts', { key: apiKey, body: { text: 'Mine' } });
    const read = (await t.request('POST', '/v1/keys', { key: apiKey, body: { scopes: ['read'] } })).body
      .apiKey;
    expect((await t.request('GET', '/v1/posts', { key: read })).status).toBe(200);
    expect((await t.request('GET', '/v1/account', { key: read })).status).toBe(200);
    const write = await t.request('POST', '/v1/posts', { key: read, body: { text: 'No' } });
    expect(write.status).toBe(403);
    expect(write.body.error).toMatchObject({ code: 'insufficient_scope', scope: 'write' });
    expect(write.body.error.message).toMatch(
      /^This needs the `write` scope \(it lets you create and edit drafts.*\), and this API key does not have it\. Use a key that has it, or create one with POST \/v1\/keys and `scopes` including `write`\.$/,
    );
    const publish = await t.request('POST', `/v1/posts/${draft.body.post.id}/schedule`, {
      key: read,
      body: { runAt: Date.now() + 3_600_000 },
    });
    expect(publish.status).toBe(403);
    expect(publish.body.error.scope).toBe('publish');
    // Hot path (the key is cached by now) and cold path answer alike.
    expect((await t.request('DELETE', `/v1/posts/${draft.body.post.id}`, { key: read })).status).toBe(403);
  });

  it('a write key cannot schedule, not even by creating a post with runAt', async () => {
    const { apiKey } = await t.signup();
    const key = (await t.request('POST', '/v1/keys', { key: apiKey, body: { scopes: ['read', 'write'] } }))
      .body.apiKey;
    expect((await t.request('POST', '/v1/posts', { key, body: { text: 'Draft ok' } })).status).toBe(201);
    const scheduled = await t.request('POST', '/v1/posts', {
      key,
      body: { text: 'Later', runAt: Date.now() + 3_600_000 },
    });
    expect(scheduled.status).toBe(403);
    expect(scheduled.body.error).toMatchObject({ code: 'insufficient_scope', scope: 'publish' });
  });

  it('a key cannot mint or rotate into more scopes than it holds', async () => {
    const { apiKey } = await t.signup();
    const rw = await t.request('POST', '/v1/keys', { key: apiKey, body: { scopes: ['read', 'write'] } });
    const escalate = await t.request('POST', '/v1/keys', { key: rw.body.apiKey, body: {} });
    expect(escalate.status).toBe(403);
    expect(escalate.body.error.scope).toBe('publish');
    const same = await t.request('POST', '/v1/keys', { key: rw.body.apiKey, body: { scopes: ['read'] } });
    expect(same.status).toBe(201);
    const full = await t.request('GET', '/v1/keys', { key: apiKey });
    const fullKeyId = full.body.keys.find((k: { scopes: string[] }) => k.scopes.length === 3).id;
    expect((await t.request('POST', `/v1/keys/${fullKeyId}/rotate`, { key: rw.body.apiKey })).status).toBe(
      403,
    );
    const rotated = await t.request('POST', `/v1/keys/${rw.body.key.id}/rotate`, { key: apiKey });
    expect(rotated.body.key.scopes).toEqual(['read', 'write']);
  });

  it.each([[['admin']], [[]], ['read']])('refuses scopes %j with a 400', async (scopes) => {
    const { apiKey } = await t.signup();
    const res = await t.request('POST', '/v1/keys', { key: apiKey, body: { scopes } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toMatch(/^scopes/);
  });

  it('a protected route without a declared scope stops the app from starting', async () => {
    const app = await buildApp(t.service.deps, apiRoutes);
    expect(() => app.get('/v1/unscoped', async () => ({}))).toThrow(
      /GET \/v1\/unscoped declares no scope: add config.scope/,
    );
    await app.close();
  });
});

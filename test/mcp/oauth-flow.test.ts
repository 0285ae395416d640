import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { callErr, callOk } from './helpers.ts';
import {
  connectApp,
  mcpClientWithToken,
  mcpStatus,
  newClient,
  pkcePair,
  REDIRECT,
  startConsent,
  token,
} from './oauth-helpers.ts';

/** Time the server reads (deps.clock): moved forward to expire codes and tokens. */
let now = Date.now();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { clock: { now: () => now } });
});
afterAll(async () => {
  await t?.close();
});

describe('OAuth authorization code + PKCE for /mcp', () => {
  it('a token from the flow works on /mcp with the official client, on the approving account only', async () => {
    const a = await t.signup();
    const b = await t.signup();
    const draft = await t.request('POST', '/v1/posts', { key: a.apiKey, body: { text: 'Account A draft' } });
    expect(draft.status).toBe(201);
    const tokens = await connectApp(t, a.apiKey);
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'read write publish' });
    expect(tokens.access_token).toMatch(/^kit_at_/);
    expect(tokens.refresh_token).toMatch(/^kit_rt_/);

    const client = await mcpClientWithToken(t.url, tokens.access_token);
    const { data } = await callOk(client, 'list_posts');
    expect(data.posts.map((p: { id: string }) => p.id)).toEqual([draft.body.post.id]);
    // Another account's post is not found through A's token.
    const other = await t.request('POST', '/v1/posts', { key: b.apiKey, body: { text: 'Account B draft' } });
    expect((await callErr(client, 'get_post', { id: other.body.post.id })).error.code).toBe('not_found');
    await client.close();

    // The token is bound to /mcp: the REST API refuses it with a sentence saying so.
    const rest = await t.request('GET', '/v1/posts', { key: tokens.access_token });
    expect(rest.status).toBe(401);
    expect(rest.body.error.message).toMatch(/only place it works/);
    // The API key still works on /mcp as before.
    expect(await mcpStatus(t, a.apiKey)).toBe(200);
  });

  it('refuses a wrong verifier, another redirect URI, another client and a reused code (which revokes the grant)', async () => {
    const { apiKey } = await t.signup();
    const clientId = await newClient(t);
    const { verifier, challenge } = pkcePair();
    const requestId = await startConsent(t, clientId, challenge);
    const approved = await t.request('POST', `/v1/oauth/requests/${requestId}/approve`, {
      key: apiKey,
      body: {},
    });
    const code = new URL(approved.body.redirectTo).searchParams.get('code')!;
    const form = {
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
    };
    const wrong = await token(t, { ...form, code_verifier: pkcePair().verifier });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(wrong.body.error_description).toMatch(/PKCE/);
    expect((await token(t, { ...form, redirect_uri: 'http://127.0.0.1:1/other' })).body.error).toBe(
      'invalid_grant',
    );
    expect((await token(t, { ...form, client_id: await newClient(t) })).body.error_description).toMatch(
      /another client/,
    );
    const first = await token(t, form);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await mcpStatus(t, first.body.access_token)).toBe(200);
    const again = await token(t, form);
    expect(again.body.error_description).toMatch(/already used.*revoked/);
    expect(await mcpStatus(t, first.body.access_token)).toBe(401);
    // The consent request was answered: it cannot be approved twice.
    const twice = await t.request('POST', `/v1/oauth/requests/${requestId}/approve`, {
      key: apiKey,
      body: {},
    });
    expect(twice.status).toBe(404);
  });

  it('rotates refresh tokens, and a reused refresh token revokes the whole family', async () => {
    const { apiKey } = await t.signup();
    const first = await connectApp(t, apiKey);
    const refresh = (refresh_token: string) =>
      token(t, {
        grant_type: 'refresh_token',
        refresh_token,
        client_id: first.clientId,
        resource: `${t.url}/mcp`,
      });
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.scope).toBe('read write publish');
    const third = await refresh(second.body.refresh_token);
    expect(third.status).toBe(200);
    expect(await mcpStatus(t, third.body.access_token)).toBe(200);
    // The first refresh token again: it was stolen or replayed. Everything of the grant ends.
    const replay = await refresh(first.refresh_token);
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await mcpStatus(t, third.body.access_token)).toBe(401);
    expect((await refresh(third.body.refresh_token)).body.error).toBe('invalid_grant');
    const apps = await t.request('GET', '/v1/oauth/apps', { key: apiKey });
    expect(apps.body.apps).toEqual([]);
  });

  it('refuses a refresh for another resource or with more scopes', async () => {
    const { apiKey } = await t.signup();
    const tokens = await connectApp(t, apiKey, { scope: 'read' });
    const base = {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: tokens.clientId,
    };
    expect((await token(t, { ...base, resource: 'https://other.example/mcp' })).body.error).toBe(
      'invalid_target',
    );
    expect((await token(t, { ...base, scope: 'read publish' })).body.error).toBe('invalid_scope');
    expect((await token(t, base)).status).toBe(200);
  });

  it('expires codes after 5 minutes, access tokens after 15 and refresh tokens after 30 days', async () => {
    const { apiKey } = await t.signup();
    const clientId = await newClient(t);
    const { verifier, challenge } = pkcePair();
    const requestId = await startConsent(t, clientId, challenge);
    const approved = await t.request('POST', `/v1/oauth/requests/${requestId}/approve`, {
      key: apiKey,
      body: {},
    });
    const code = new URL(approved.body.redirectTo).searchParams.get('code')!;
    now += 5 * 60_000 + 1;
    const late = await token(t, {
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
    });
    expect(late.body.error_description).toMatch(/expired/);

    const tokens = await connectApp(t, apiKey);
    expect(await mcpStatus(t, tokens.access_token)).toBe(200);
    now += 15 * 60_000 + 1;
    expect(await mcpStatus(t, tokens.access_token)).toBe(401);
    const renewed = await token(t, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: tokens.clientId,
    });
    expect(renewed.status).toBe(200);
    expect(await mcpStatus(t, renewed.body.access_token)).toBe(200);
    now += 30 * 24 * 3_600_000 + 1;
    const stale = await token(t, {
      grant_type: 'refresh_token',
      refresh_token: renewed.body.refresh_token,
      client_id: tokens.clientId,
    });
    expect(stale.body.error_description).toMatch(/expired/);
  });

  it('an expired consent request cannot be approved', async () => {
    const { apiKey } = await t.signup();
    const requestId = await startConsent(t, await newClient(t), pkcePair().challenge);
    now += 10 * 60_000 + 1;
    const res = await t.request('GET', `/v1/oauth/requests/${requestId}`, { key: apiKey });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toMatch(/expires after 10 minutes/);
  });
});

describe('connected apps: listing, revocation, isolation', () => {
  it('lists the account’s apps only; revoking ends their tokens at once; another account gets 404', async () => {
    const a = await t.signup();
    const b = await t.signup();
    const tokens = await connectApp(t, a.apiKey, { scope: 'read write' });
    expect(await mcpStatus(t, tokens.access_token)).toBe(200);
    // Last use is recorded after the answer (fire and forget, at most once a minute): poll for it.
    let list = await t.request('GET', '/v1/oauth/apps', { key: a.apiKey });
    for (let i = 0; i < 50 && list.body.apps[0]?.lastUsedAt === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      list = await t.request('GET', '/v1/oauth/apps', { key: a.apiKey });
    }
    expect(list.body.apps).toEqual([
      expect.objectContaining({
        clientId: tokens.clientId,
        name: 'Test Agent',
        scopes: ['read', 'write'],
        redirectHosts: ['127.0.0.1:53682'],
        lastUsedAt: expect.any(Number),
      }),
    ]);
    expect((await t.request('GET', '/v1/oauth/apps', { key: b.apiKey })).body.apps).toEqual([]);
    const foreign = await t.request('DELETE', `/v1/oauth/apps/${tokens.clientId}`, { key: b.apiKey });
    expect(foreign.status).toBe(404);
    expect(await mcpStatus(t, tokens.access_token)).toBe(200);

    const revoked = await t.request('DELETE', `/v1/oauth/apps/${tokens.clientId}`, { key: a.apiKey });
    expect(revoked).toMatchObject({ status: 200, body: { revoked: true } });
    expect(await mcpStatus(t, tokens.access_token)).toBe(401);
    const refresh = await token(t, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: tokens.clientId,
    });
    expect(refresh.body.error).toBe('invalid_grant');
    expect((await t.request('GET', '/v1/oauth/apps', { key: a.apiKey })).body.apps).toEqual([]);
    expect((await t.request('DELETE', `/v1/oauth/apps/${tokens.clientId}`, { key: a.apiKey })).status).toBe(
      404,
    );
  });

  it('a client revokes its own tokens (RFC 7009)', async () => {
    const { apiKey } = await t.signup();
    const tokens = await connectApp(t, apiKey);
    const res = await fetch(`${t.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token, client_id: tokens.clientId }),
    });
    expect(res.status).toBe(200);
    expect(await mcpStatus(t, tokens.access_token)).toBe(401);
  });

  it('an approving key cannot grant scopes it lacks, and the person may grant fewer than asked', async () => {
    const { apiKey } = await t.signup();
    const readOnly = await t.request('POST', '/v1/keys', {
      key: apiKey,
      body: { name: 'dash', scopes: ['read'] },
    });
    const requestId = await startConsent(t, await newClient(t), pkcePair().challenge);
    const view = await t.request('GET', `/v1/oauth/requests/${requestId}`, { key: readOnly.body.apiKey });
    expect(view.body.request).toMatchObject({
      client: { name: 'Test Agent' },
      redirectHost: '127.0.0.1:53682',
    });
    expect(view.body.request.scopes.map((s: { scope: string }) => s.scope)).toEqual([
      'read',
      'write',
      'publish',
    ]);
    const refused = await t.request('POST', `/v1/oauth/requests/${requestId}/approve`, {
      key: readOnly.body.apiKey,
      body: {},
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'insufficient_scope', scope: 'write' });
    const fewer = await t.request('POST', `/v1/oauth/requests/${requestId}/approve`, {
      key: readOnly.body.apiKey,
      body: { scopes: ['read'] },
    });
    expect(fewer.status).toBe(200);
  });
});

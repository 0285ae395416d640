import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { callOk } from './helpers.ts';
import { type DocumentServer, startDocumentServer } from './https-documents.ts';
import { authorize, mcpStatus, pkcePair, token } from './oauth-helpers.ts';
import { sdkSignIn, TestProvider } from './sdk-provider.ts';

/*
 * Client ID metadata documents: the agent's client_id is an https URL, and Postkit fetches the
 * JSON there. The document is served by a real https server on loopback with a certificate made
 * for the run; the app trusts that certificate and lets loopback in (a test-only setting).
 */
let t: TestApp;
let docs: DocumentServer;
const REDIRECT = 'http://127.0.0.1:53999/callback';

const documentFor = (clientId: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    client_id: clientId,
    client_name: 'Document Agent',
    client_uri: 'https://agent.example.com',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...extra,
  });

/** Serves a valid document at a fresh path and returns its URL (the client_id). */
function hostDocument(path: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>) {
  const clientId = docs.url(path);
  docs.serve(path, { body: documentFor(clientId, extra), headers });
  return clientId;
}

const start = (clientId: string, redirectUri = REDIRECT) =>
  authorize(t, {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    resource: `${t.url}/mcp`,
  });

/** A sign-in the person must see refused: a 400 page, never a redirect to the app. */
async function refused(clientId: string, redirectUri = REDIRECT) {
  const res = await start(clientId, redirectUri);
  expect(res.status, res.text).toBe(400);
  expect(res.location).toBeNull();
  return res.text.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)));
}

beforeAll(async () => {
  docs = await startDocumentServer();
  t = await startTestApp({
    OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK: 'true',
    OAUTH_CLIENT_METADATA_TEST_CA: docs.cert,
    OAUTH_CLIENT_METADATA_TIMEOUT_MS: '1000',
    OAUTH_CLIENT_METADATA_MAX_BYTES: '2048',
  });
});
afterAll(async () => {
  await t?.close();
  await docs?.close();
});

describe('client ID metadata documents', () => {
  it('the official SDK client signs in by its metadata document URL, beside a registered client', async () => {
    const { apiKey } = await t.signup();
    const clientId = hostDocument('/agents/sdk.json', { client_name: 'SDK Agent' });
    const byDocument = await sdkSignIn(t, apiKey, new TestProvider({ clientMetadataUrl: clientId }));
    expect(byDocument.provider.info?.client_id).toBe(clientId);
    expect(byDocument.authorizeUrl.searchParams.get('client_id')).toBe(clientId);
    expect(docs.hits('/agents/sdk.json')).toBe(1);
    expect((await callOk(byDocument.client, 'list_posts')).data.posts).toEqual([]);

    // Dynamic registration keeps working on the same server.
    const registered = await sdkSignIn(
      t,
      apiKey,
      new TestProvider({ redirectUrl: 'http://127.0.0.1:53998/cb' }),
    );
    expect(registered.provider.info?.client_id).toMatch(/^mcp_/);
    expect((await callOk(registered.client, 'list_posts')).data.posts).toEqual([]);

    const apps = await t.request('GET', '/v1/oauth/apps', { key: apiKey });
    expect(apps.status).toBe(200);
    const named = apps.body.apps.find((a: { clientId: string }) => a.clientId === clientId);
    expect(named).toMatchObject({ name: 'SDK Agent', clientUri: 'https://agent.example.com' });
    expect(apps.body.apps).toHaveLength(2);

    // The refresh and the revocation name the client by its URL too.
    const refreshed = await token(t, {
      grant_type: 'refresh_token',
      refresh_token: byDocument.provider.saved!.refresh_token!,
      client_id: clientId,
    });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    const revoke = await fetch(`${t.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refreshed.body.access_token, client_id: clientId }),
    });
    expect(revoke.status).toBe(200);
    expect(await mcpStatus(t, refreshed.body.access_token)).toBe(401);
    // The whole grant ended: the refresh token issued beside that access token is dead too.
    const again = await token(t, {
      grant_type: 'refresh_token',
      refresh_token: refreshed.body.refresh_token,
      client_id: clientId,
    });
    expect(again.body.error).toBe('invalid_grant');
    // The registered client's grant is another grant, and keeps working.
    expect((await callOk(registered.client, 'list_posts')).data.posts).toEqual([]);
    await byDocument.client.close();
    await registered.client.close();
  });

  it('enforces the document’s redirect URIs exactly (no loopback port change)', async () => {
    const clientId = hostDocument('/agents/exact.json');
    expect((await start(clientId)).status).toBe(302);
    const text = await refused(clientId, 'http://127.0.0.1:54000/callback');
    expect(text).toContain('asked to return to an address it did not register');
    expect(await refused(clientId, `${REDIRECT}/more`)).toContain('did not register');
  });

  it('refuses a document whose client_id is not its own URL', async () => {
    const path = '/agents/other.json';
    docs.serve(path, { body: documentFor('https://agent.example.com/client.json') });
    expect(await refused(docs.url(path))).toContain('its client_id is not the URL it is served at');
  });

  it('refuses documents that are not usable: secrets, bad redirect URIs, not JSON, not 200, redirects', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['/bad/secret.json', { client_secret: 'x' }, 'declares a client secret'],
      ['/bad/basic.json', { token_endpoint_auth_method: 'client_secret_basic' }, 'public clients only'],
      ['/bad/redirect.json', { redirect_uris: ['http://agent.example.com/cb'] }, 'uses plain http'],
      ['/bad/none.json', { redirect_uris: [] }, 'redirect_uris must list at least one'],
    ];
    for (const [path, extra, expected] of cases) {
      const clientId = docs.url(path);
      docs.serve(path, { body: documentFor(clientId, extra) });
      expect(await refused(clientId), path).toContain(expected);
    }
    const raw: [string, Parameters<DocumentServer['serve']>[1], string][] = [
      [
        '/raw/html.json',
        { headers: { 'content-type': 'text/html' }, body: '<p>hi</p>' },
        'not served as application/json',
      ],
      ['/raw/broken.json', { body: '{"client_id":' }, 'not valid JSON'],
      ['/raw/array.json', { body: '[]' }, 'not a JSON object'],
      ['/raw/missing.json', { status: 404, body: '{}' }, 'answered 404 instead of 200'],
      [
        '/raw/moved.json',
        { status: 302, headers: { location: '/agents/sdk.json' } },
        'redirect (302), which is not followed',
      ],
    ];
    for (const [path, response, expected] of raw) {
      docs.serve(path, response);
      expect(await refused(docs.url(path)), path).toContain(expected);
    }
  });

  it('refuses client_id URLs the draft rules out before fetching anything', async () => {
    expect(await refused(docs.url('/'))).toContain('must have a path');
    expect(await refused(`${docs.url('/a/../b.json')}`)).toContain('not in its normal form');
    expect(await refused(`${docs.url('/c.json')}#frag`)).toContain('fragment');
  });

  it('limits the document’s size and the time it takes', async () => {
    const big = '/limits/big.json';
    const bigId = docs.url(big);
    docs.serve(big, { body: documentFor(bigId, { padding: 'x'.repeat(4000) }) });
    expect(await refused(bigId)).toContain('larger than 2048 bytes');
    const slow = '/limits/slow.json';
    docs.serve(slow, { hold: true });
    expect(await refused(docs.url(slow))).toContain('did not answer within 1 second.');
  });

  it('caches the document by its HTTP caching headers', async () => {
    const cached = hostDocument('/cache/max-age.json', {}, { 'cache-control': 'public, max-age=600' });
    for (let i = 0; i < 3; i++) expect((await start(cached)).status).toBe(302);
    expect(docs.hits('/cache/max-age.json')).toBe(1);

    const uncached = hostDocument('/cache/no-store.json', {}, { 'cache-control': 'no-store' });
    for (let i = 0; i < 3; i++) expect((await start(uncached)).status).toBe(302);
    expect(docs.hits('/cache/no-store.json')).toBe(3);

    // Fetched again each time, the stored client follows the document's changes at once.
    docs.serve('/cache/no-store.json', {
      body: documentFor(uncached, { redirect_uris: ['http://127.0.0.1:53997/new'] }),
      headers: { 'cache-control': 'no-store' },
    });
    expect(await refused(uncached)).toContain('did not register');
    expect((await start(uncached, 'http://127.0.0.1:53997/new')).status).toBe(302);
  });
});

describe('the address guard on metadata documents', () => {
  it('without the test setting, loopback and private hosts are refused, as for webhooks', async () => {
    const guarded = await startTestApp();
    try {
      const path = '/guard/doc.json';
      const clientId = hostDocument(path);
      for (const id of [clientId, 'https://10.0.0.7/agent.json', 'https://[::1]/agent.json']) {
        const res = await authorize(guarded, {
          response_type: 'code',
          client_id: id,
          redirect_uri: REDIRECT,
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
        });
        expect(res.status, id).toBe(400);
        expect(res.text, id).toContain('not a public one');
      }
      expect(docs.hits(path)).toBe(0);
    } finally {
      await guarded.close();
    }
  });
});

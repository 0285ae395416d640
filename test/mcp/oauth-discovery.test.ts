import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { authorize, newClient, pkcePair, REDIRECT, registerClient } from './oauth-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('OAuth discovery (RFC 9728, RFC 8414)', () => {
  it('/mcp without a token is 401 naming the protected resource metadata', async () => {
    const res = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${t.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    const bad = await fetch(`${t.url}/mcp/tools/list`, { headers: { authorization: 'Bearer kit_at_nope' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('publishes the protected resource metadata at the root, path-inserted and path-appended addresses', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/mcp/.well-known/oauth-protected-resource',
    ]) {
      const res = await t.request('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(res.body).toMatchObject({
        resource: `${t.url}/mcp`,
        authorization_servers: [t.url],
        scopes_supported: ['read', 'write', 'publish'],
        bearer_methods_supported: ['header'],
      });
    }
  });

  it('publishes the authorization server metadata: S256 only, public clients, the scopes', async () => {
    const res = await t.request('GET', '/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: t.url,
      authorization_endpoint: `${t.url}/oauth/authorize`,
      token_endpoint: `${t.url}/oauth/token`,
      registration_endpoint: `${t.url}/oauth/register`,
      client_id_metadata_document_supported: true,
      revocation_endpoint: `${t.url}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      response_types_supported: ['code'],
      scopes_supported: ['read', 'write', 'publish'],
    });
  });

  it('PUBLIC_BASE_URL names the issuer and resource behind a proxy', async () => {
    const proxied = await startTestApp({ PUBLIC_BASE_URL: 'https://postkit.example.com/' });
    try {
      const meta = await proxied.request('GET', '/.well-known/oauth-protected-resource/mcp');
      expect(meta.body.resource).toBe('https://postkit.example.com/mcp');
      expect(meta.body.authorization_servers).toEqual(['https://postkit.example.com']);
    } finally {
      await proxied.close();
    }
  });
});

describe('dynamic client registration (RFC 7591)', () => {
  it('registers public clients with https or loopback http redirect URIs', async () => {
    const res = await registerClient(t, {
      client_name: 'Claude',
      redirect_uris: [
        'https://claude.ai/api/mcp/auth_callback',
        'http://127.0.0.1:33418/cb',
        'http://localhost/cb',
      ],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      client_id: expect.stringMatching(/^mcp_/),
      client_name: 'Claude',
      token_endpoint_auth_method: 'none',
      redirect_uris: [
        'https://claude.ai/api/mcp/auth_callback',
        'http://127.0.0.1:33418/cb',
        'http://localhost/cb',
      ],
    });
    expect(res.body.client_secret).toBeUndefined();
  });

  it.each([
    [['http://evil.example.com/cb'], 'invalid_redirect_uri', /plain http/],
    [['myapp://callback'], 'invalid_redirect_uri', /only https/],
    [['https://app.example.com/cb#frag'], 'invalid_redirect_uri', /fragment/],
    [['not a url'], 'invalid_redirect_uri', /not an absolute URL/],
    [[], 'invalid_redirect_uri', /at least one/],
  ])('refuses redirect URIs %j', async (uris, error, message) => {
    const res = await registerClient(t, { client_name: 'x', redirect_uris: uris });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(error);
    expect(res.body.error_description).toMatch(message);
  });

  it('refuses confidential clients and unsupported grants', async () => {
    const secret = await registerClient(t, {
      redirect_uris: ['https://a.example/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(secret.status).toBe(400);
    expect(secret.body).toMatchObject({ error: 'invalid_client_metadata' });
    const implicit = await registerClient(t, {
      redirect_uris: ['https://a.example/cb'],
      grant_types: ['implicit'],
    });
    expect(implicit.body.error_description).toMatch(/implicit is not offered/);
  });

  it('is rate-limited per address', async () => {
    const limited = await startTestApp({ RATE_LIMIT_SIGNUPS_PER_HOUR: '2' });
    try {
      const body = { redirect_uris: ['https://a.example/cb'] };
      expect((await registerClient(limited, body)).status).toBe(201);
      expect((await registerClient(limited, body)).status).toBe(201);
      const third = await registerClient(limited, body);
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(third.body.error).toBe('too_many_requests');
    } finally {
      await limited.close();
    }
  });
});

describe('the authorize endpoint', () => {
  const base = (clientId: string) => ({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    state: 'xyz',
  });

  it('never redirects for an unknown client or an unregistered redirect URI', async () => {
    const clientId = await newClient(t);
    const unknown = await authorize(t, { ...base(clientId), client_id: 'mcp_unknown' });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('not registered with Postkit');
    const elsewhere = await authorize(t, { ...base(clientId), redirect_uri: 'https://evil.example/cb' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.location).toBeNull();
    expect(elsewhere.text).toContain('did not register');
  });

  it('accepts another port on a loopback redirect URI (RFC 8252)', async () => {
    const clientId = await newClient(t);
    const res = await authorize(t, { ...base(clientId), redirect_uri: 'http://127.0.0.1:40001/callback' });
    expect(res.status).toBe(302);
    expect(res.location).toMatch(/^\/#\/authorize\?request=oar_/);
  });

  it.each([
    [{ code_challenge_method: 'plain' }, 'invalid_request', /S256/],
    [{ code_challenge: '' }, 'invalid_request', /PKCE is required/],
    [{ response_type: 'token' }, 'unsupported_response_type', /code/],
    [{ scope: 'read admin' }, 'invalid_scope', /Unknown scope admin/],
    [{ resource: 'https://other.example/mcp' }, 'invalid_target', /only for its MCP endpoint/],
  ])('sends %j back to the client as an error', async (change, error, description) => {
    const clientId = await newClient(t);
    const res = await authorize(t, { ...base(clientId), ...change });
    expect(res.status).toBe(302);
    const back = new URL(res.location!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe(error);
    expect(back.searchParams.get('error_description')).toMatch(description);
    expect(back.searchParams.get('state')).toBe('xyz');
  });
});

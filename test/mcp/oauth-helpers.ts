import { createHash, randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.ts';

/** A PKCE pair as a client makes it (RFC 7636): a random verifier and its S256 challenge. */
export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

export async function registerClient(t: TestApp, body: Record<string, unknown>) {
  return t.request('POST', '/oauth/register', { body });
}

export const REDIRECT = 'http://127.0.0.1:53682/callback';

/** A registered public client with one loopback redirect URI. */
export async function newClient(t: TestApp, name = 'Test Agent') {
  const res = await registerClient(t, { client_name: name, redirect_uris: [REDIRECT] });
  expect(res.status, res.text).toBe(201);
  return res.body.client_id as string;
}

/** GET /oauth/authorize without following the redirect. */
export async function authorize(t: TestApp, params: Record<string, string>) {
  const res = await fetch(`${t.url}/oauth/authorize?${new URLSearchParams(params)}`, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

/** The token endpoint, form-encoded as OAuth requires. */
export async function token(t: TestApp, form: Record<string, string>) {
  const res = await fetch(`${t.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** Starts an authorization and returns the consent request id the console would show. */
export async function startConsent(t: TestApp, clientId: string, challenge: string, scope?: string) {
  const res = await authorize(t, {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    resource: `${t.url}/mcp`,
    ...(scope ? { scope } : {}),
  });
  expect(res.status, res.text).toBe(302);
  const match = /^\/#\/authorize\?request=(oar_\w+)$/.exec(res.location ?? '');
  expect(match, res.location ?? '').not.toBeNull();
  return match![1]!;
}

/** Code + PKCE end to end without a browser: approve with the account's key, exchange the code. */
export async function connectApp(
  t: TestApp,
  apiKey: string,
  opts: { scope?: string; clientId?: string } = {},
) {
  const clientId = opts.clientId ?? (await newClient(t));
  const { verifier, challenge } = pkcePair();
  const requestId = await startConsent(t, clientId, challenge, opts.scope);
  const approved = await t.request('POST', `/v1/oauth/requests/${requestId}/approve`, {
    key: apiKey,
    body: {},
  });
  expect(approved.status, approved.text).toBe(200);
  const back = new URL(approved.body.redirectTo);
  expect(back.searchParams.get('state')).toBe('st-1');
  const code = back.searchParams.get('code')!;
  const tokens = await token(t, {
    grant_type: 'authorization_code',
    code,
    client_id: clientId,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
    resource: `${t.url}/mcp`,
  });
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
  return {
    clientId,
    code,
    verifier,
    ...(tokens.body as { access_token: string; refresh_token: string; scope: string; expires_in: number }),
  };
}

/** The official MCP client with an OAuth access token as its bearer. */
export async function mcpClientWithToken(baseUrl: string, accessToken: string): Promise<Client> {
  const client = new Client({ name: 'postkit-oauth-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
    }),
  );
  return client;
}

/** tools/list over HTTP with a bearer: the status says whether the token is accepted. */
export async function mcpStatus(t: TestApp, bearer: string) {
  const res = await fetch(`${t.url}/mcp/tools/list`, { headers: { authorization: `Bearer ${bearer}` } });
  await res.text();
  return res.status;
}

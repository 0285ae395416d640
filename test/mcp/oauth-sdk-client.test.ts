import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { callOk } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/**
 * The official SDK client's own OAuth machinery, as a connector uses it: from a bare 401 it
 * finds the resource metadata, the authorization server, registers itself, and sends the
 * person to the consent page. Here the "person" approves through the console's API.
 */
class TestProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  get redirectUrl() {
    return 'http://127.0.0.1:53999/callback';
  }
  get clientMetadata() {
    return {
      client_name: 'SDK Agent',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe('the official MCP client signs in by itself', () => {
  it('discovers, registers, gets consent, exchanges the code and calls tools', async () => {
    const { apiKey } = await t.signup();
    const provider = new TestProvider();
    const url = new URL(`${t.url}/mcp`);
    const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
    const client = new Client({ name: 'sdk-agent', version: '1.0.0' });
    await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.info?.client_id).toMatch(/^mcp_/);
    const authorizeUrl = provider.authorizationUrl!;
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizeUrl.searchParams.get('resource')).toBe(`${t.url}/mcp`);

    // The browser's part: the consent request, approved by the signed-in account.
    const res = await fetch(authorizeUrl, { redirect: 'manual' });
    const requestId = /request=(oar_\w+)/.exec(res.headers.get('location') ?? '')![1]!;
    const approved = await t.request('POST', `/v1/oauth/requests/${requestId}/approve`, {
      key: apiKey,
      body: {},
    });
    const code = new URL(approved.body.redirectTo).searchParams.get('code')!;

    await first.finishAuth(code);
    expect(provider.saved?.access_token).toMatch(/^kit_at_/);
    const connected = new Client({ name: 'sdk-agent', version: '1.0.0' });
    await connected.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    const { data } = await callOk(connected, 'list_posts');
    expect(data.posts).toEqual([]);
    await connected.close();
  });
});

import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.ts';

/**
 * The official SDK client's own OAuth machinery, as a connector uses it: from a bare 401 it
 * finds the resource metadata, the authorization server, registers itself (or, given
 * `clientMetadataUrl`, names itself by its metadata document), and sends the person to the
 * consent page. Here the "person" approves through the console's API.
 */
export class TestProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  readonly clientMetadataUrl: string | undefined;
  readonly #redirect: string;
  constructor(opts: { clientMetadataUrl?: string; redirectUrl?: string } = {}) {
    this.clientMetadataUrl = opts.clientMetadataUrl;
    this.#redirect = opts.redirectUrl ?? 'http://127.0.0.1:53999/callback';
  }
  get redirectUrl() {
    return this.#redirect;
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
  /** Called by the SDK when the server refuses what it holds (e.g. a refresh token of a revoked grant). */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.info = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = '';
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/**
 * The whole sign-in as the SDK runs it: a first connect answered 401, the consent approved with
 * the account's key, the code exchanged by the SDK; returns a connected client.
 */
export async function sdkSignIn(t: TestApp, apiKey: string, provider = new TestProvider()) {
  const url = new URL(`${t.url}/mcp`);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(new Client({ name: 'sdk-agent', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  const authorizeUrl = provider.authorizationUrl!;
  const res = await fetch(authorizeUrl, { redirect: 'manual' });
  const requestId = /request=(oar_\w+)/.exec(res.headers.get('location') ?? '')?.[1];
  expect(requestId, `${res.status} ${await res.text()}`).toBeDefined();
  const approved = await t.request('POST', `/v1/oauth/requests/${requestId}/approve`, {
    key: apiKey,
    body: {},
  });
  expect(approved.status, approved.text).toBe(200);
  await first.finishAuth(new URL(approved.body.redirectTo).searchParams.get('code')!);
  const client = new Client({ name: 'sdk-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return { client, provider, authorizeUrl };
}

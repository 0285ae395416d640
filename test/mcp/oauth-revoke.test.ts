import {
  discoverAuthorizationServerMetadata,
  discoverOAuthServerInfo,
  refreshAuthorization,
  UnauthorizedError,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { InvalidGrantError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend, startTestApp, type TestApp } from '../helpers/app.ts';
import { spawnService } from '../helpers/processes.ts';
import { callOk } from './helpers.ts';
import { connectApp, mcpStatus } from './oauth-helpers.ts';
import { sdkSignIn } from './sdk-provider.ts';

/*
 * RFC 7009 for public clients (issue 37 item 2): a revocation names its client, is refused
 * without one, and a valid one ends the whole grant (access and refresh) at once, here and in
 * another API process on the same database.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const revoke = (base: string, form: Record<string, string>) => revokeAt(`${base}/oauth/revoke`, form);

async function revokeAt(endpoint: string, form: Record<string, string>) {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/** The SDK's own refresh against this server; resolves with the new tokens or rejects. */
async function sdkRefresh(clientId: string, refreshToken: string) {
  return refreshAuthorization(t.url, {
    metadata: await discoverAuthorizationServerMetadata(t.url),
    clientInformation: { client_id: clientId },
    refreshToken,
    resource: new URL(`${t.url}/mcp`),
  });
}

describe('POST /oauth/revoke', () => {
  it('refuses a request without client_id or token, and then revokes nothing', async () => {
    const { apiKey } = await t.signup();
    const tokens = await connectApp(t, apiKey);
    for (const token of [tokens.access_token, tokens.refresh_token]) {
      const res = await revoke(t.url, { token });
      expect(res).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
      expect(res.body.error_description).toMatch(/client_id/);
    }
    expect(await revoke(t.url, { client_id: tokens.clientId })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
    expect(await mcpStatus(t, tokens.access_token)).toBe(200);
    expect((await sdkRefresh(tokens.clientId, tokens.refresh_token)).access_token).toMatch(/^kit_at_/);
  });

  it('refuses an unknown client and a token of another client, which stays live', async () => {
    const { apiKey } = await t.signup();
    const mine = await connectApp(t, apiKey);
    const other = await connectApp(t, apiKey);
    expect(await revoke(t.url, { token: mine.access_token, client_id: 'mcp_unknown' })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    expect(await revoke(t.url, { token: mine.access_token, client_id: other.clientId })).toMatchObject({
      status: 400,
      body: { error: 'unauthorized_client' },
    });
    expect(await mcpStatus(t, mine.access_token)).toBe(200);
    // An unknown token is not an error (RFC 7009 section 2.2), nor is an authorization code.
    expect(await revoke(t.url, { token: 'kit_at_nothing', client_id: mine.clientId })).toMatchObject({
      status: 200,
    });
    expect(await revoke(t.url, { token: mine.code, client_id: mine.clientId })).toMatchObject({
      status: 200,
    });
    expect(await mcpStatus(t, mine.access_token)).toBe(200);
  });

  it('an access token revoked by the SDK-signed-in client ends the whole grant at once', async () => {
    const { apiKey } = await t.signup();
    const { client, provider } = await sdkSignIn(t, apiKey);
    await callOk(client, 'list_posts');
    const clientId = provider.info!.client_id;
    const { access_token, refresh_token } = provider.saved!;
    // Where to revoke, found as the SDK finds the rest: from the MCP server's URL.
    const { authorizationServerMetadata } = await discoverOAuthServerInfo(`${t.url}/mcp`);
    const endpoint = (authorizationServerMetadata as { revocation_endpoint?: string } | undefined)
      ?.revocation_endpoint;
    expect(endpoint).toBe(`${t.url}/oauth/revoke`);
    const res = await revokeAt(endpoint!, {
      token: access_token,
      client_id: clientId,
      token_type_hint: 'access_token',
    });
    expect(res).toEqual({ status: 200, body: {} });
    // The very next call is refused: the SDK tries its refresh token, which is dead too, so it
    // starts a new sign-in (a fresh authorization URL) instead of carrying on.
    provider.authorizationUrl = undefined;
    await expect(client.callTool({ name: 'list_posts', arguments: {} })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect((provider.authorizationUrl as URL | undefined)?.pathname).toBe('/oauth/authorize');
    expect(provider.saved).toBeUndefined();
    expect(await mcpStatus(t, access_token)).toBe(401);
    await expect(sdkRefresh(clientId, refresh_token!)).rejects.toBeInstanceOf(InvalidGrantError);
    expect((await t.request('GET', '/v1/oauth/apps', { key: apiKey })).body.apps).toEqual([]);
    // Revoking again is still 200 (the token is simply unknown now).
    expect((await revoke(t.url, { token: access_token, client_id: clientId })).status).toBe(200);
    await client.close();
  });

  it('a refresh token revoked ends the access token too', async () => {
    const { apiKey } = await t.signup();
    const tokens = await connectApp(t, apiKey);
    expect((await revoke(t.url, { token: tokens.refresh_token, client_id: tokens.clientId })).status).toBe(
      200,
    );
    expect(await mcpStatus(t, tokens.access_token)).toBe(401);
  });

  it.runIf(backend === 'postgres')(
    'a revocation answered by one API process ends the token in another at once',
    async () => {
      const other = await spawnService('api', {
        DATABASE_URL: t.config.DATABASE_URL,
        REDIS_URL: process.env.REDIS_URL,
        // Tokens are bound to the resource's address: the other process serves the same one.
        PUBLIC_BASE_URL: t.url,
        RATE_LIMIT_REQUESTS_PER_MIN: '100000',
      });
      try {
        const { apiKey } = await t.signup();
        const tokens = await connectApp(t, apiKey);
        const statusThere = async () => {
          const res = await fetch(`${other.url}/mcp/tools/list`, {
            headers: { authorization: `Bearer ${tokens.access_token}` },
          });
          await res.text();
          return res.status;
        };
        expect(await statusThere()).toBe(200);
        expect((await revoke(t.url, { token: tokens.access_token, client_id: tokens.clientId })).status).toBe(
          200,
        );
        expect(await statusThere()).toBe(401);
        const refreshed = await fetch(`${other.url}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: tokens.refresh_token,
            client_id: tokens.clientId,
          }),
        });
        expect(((await refreshed.json()) as { error: string }).error).toBe('invalid_grant');
      } finally {
        await other.kill();
      }
    },
    90_000,
  );
});

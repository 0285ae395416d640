import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { callOk } from './helpers.ts';
import { sdkSignIn } from './sdk-provider.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the official MCP client signs in by itself', () => {
  it('discovers, registers, gets consent, exchanges the code and calls tools', async () => {
    const { apiKey } = await t.signup();
    const { client, provider, authorizeUrl } = await sdkSignIn(t, apiKey);
    expect(provider.info?.client_id).toMatch(/^mcp_/);
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizeUrl.searchParams.get('resource')).toBe(`${t.url}/mcp`);
    expect(provider.saved?.access_token).toMatch(/^kit_at_/);
    const { data } = await callOk(client, 'list_posts');
    expect(data.posts).toEqual([]);
    await client.close();
  });
});

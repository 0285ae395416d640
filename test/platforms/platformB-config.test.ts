import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { configWith } from '../../src/config/config.ts';
import { createPlatforms, platformConfigured } from '../../src/platforms/registry.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const VAULT = randomBytes(32).toString('base64');
const A = {
  PLATFORMA_CLIENT_ID: 'a-id',
  PLATFORMA_CLIENT_SECRET: 'a-secret-value',
  PLATFORMA_REDIRECT_URI: 'http://127.0.0.1:1/v1/channels/platformA/callback',
};
const B = {
  PLATFORMB_CLIENT_ID: 'b-id',
  PLATFORMB_CLIENT_SECRET: 'b-secret-value',
  PLATFORMB_REDIRECT_URI: 'http://127.0.0.1:1/v1/channels/platformB/callback',
};

const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

describe('platformB configuration', () => {
  it('builds the adapter from PLATFORMB_* (live addresses by default) only with all three credentials', () => {
    expect(platformConfigured(configWith({ PLATFORMB_CLIENT_ID: 'x' }), 'platformB')).toBe(false);
    const platform = createPlatforms(configWith(B)).get('platformB')!;
    expect(platform.pkce).toBe(true);
    const url = new URL(platform.authorizationUrl({ state: 's', codeChallenge: 'c'.repeat(43) }).url);
    expect(url.origin + url.pathname).toBe('https://x.com/i/oauth2/authorize');
    expect(url.searchParams.get('redirect_uri')).toBe(B.PLATFORMB_REDIRECT_URI);
    expect(createPlatforms(configWith(B)).has('platformA')).toBe(false);
  }, 90_000);

  it('only platformA configured: platformB routes answer 503 naming PLATFORMB_*, meta says not publishing', async () => {
    const t = await startTestApp({ KIT_VAULT_KEY: VAULT, ...A });
    apps.push(t);
    const { apiKey } = await t.signup();
    const res = await t.request('POST', '/v1/channels/platformB/connect', { key: apiKey });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('not_configured');
    expect(res.body.error.message).toContain('PLATFORMB_CLIENT_ID');
    expect(res.text).not.toContain('a-secret-value');
    expect((await t.request('GET', '/v1/channels', { key: apiKey })).status).toBe(200);
    const meta = await t.request('GET', '/v1/meta');
    expect(meta.body.platforms[1]).toMatchObject({ id: 'platformB', maxPostLength: 280, publishing: false });
  }, 90_000);

  it('only platformB configured: every generic channel route works, platformA connect is 503', async () => {
    const t = await startTestApp({ KIT_VAULT_KEY: VAULT, ...B });
    apps.push(t);
    const { apiKey } = await t.signup();
    expect((await t.request('GET', '/v1/channels', { key: apiKey })).status).toBe(200);
    expect((await t.request('GET', '/v1/channels/chn_missing', { key: apiKey })).status).toBe(404);
    expect((await t.request('POST', '/v1/channels/platformA/connect', { key: apiKey })).status).toBe(503);
    const started = await t.request('POST', '/v1/channels/platformB/connect', { key: apiKey });
    expect(started.status).toBe(200);
    expect(new URL(started.body.url).searchParams.get('code_challenge_method')).toBe('S256');
    const meta = await t.request('GET', '/v1/meta');
    expect(meta.body.platforms[1].publishing).toBe(true);
    expect(meta.body.capabilities.publishing).toBe(true);
  }, 90_000);

  it('neither configured: the 503 names both platforms’ credentials', async () => {
    const t = await startTestApp({ KIT_VAULT_KEY: VAULT });
    apps.push(t);
    const { apiKey } = await t.signup();
    // Refresh is the route not tied to one platform that needs configuration (listing does not).
    const res = await t.request('POST', '/v1/channels/chn_missing/refresh', { key: apiKey });
    expect(res.status).toBe(503);
    expect(res.body.error.message).toMatch(/PLATFORMA_CLIENT_ID.*PLATFORMB_CLIENT_ID/);
    expect((await t.request('GET', '/v1/channels', { key: apiKey })).status).toBe(200);
  }, 90_000);
});

import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const VAULT_KEY = randomBytes(32).toString('base64');
const APP_CREDENTIALS = {
  PLATFORMA_CLIENT_ID: 'client-id',
  PLATFORMA_CLIENT_SECRET: 'client-secret-value',
  PLATFORMA_REDIRECT_URI: 'http://127.0.0.1:1/v1/channels/platformA/callback',
  // Never contacted: every request below stops at the configuration check.
  PLATFORMA_AUTH_URL: 'http://127.0.0.1:1/oauth/v2',
  PLATFORMA_API_URL: 'http://127.0.0.1:1',
};

// The routes CONTRACT.md declares 503 for; listing, reading and disconnecting need no
// configuration (test/hardening/contract-channels-unconfigured.test.ts).
const ROUTES: [string, string, boolean][] = [
  ['POST', '/v1/channels/platformA/connect', false],
  ['GET', '/v1/channels/platformA/callback?code=abc&state=def', true],
  ['POST', '/v1/channels/chn_whatever/refresh', false],
];

const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

async function expectAll503(t: TestApp, mentions: RegExp, absent: RegExp | null) {
  const { apiKey } = await t.signup();
  for (const [method, path, isPublic] of ROUTES) {
    const res = await t.request(method, path, { key: isPublic ? undefined : apiKey });
    expect(res.status, `${method} ${path}`).toBe(503);
    expect(res.body.error.code).toBe('not_configured');
    expect(res.body.error.message).toMatch(mentions);
    if (absent) expect(res.body.error.message).not.toMatch(absent);
    expect(res.text).not.toContain('client-secret-value');
    expect(res.text).not.toContain(VAULT_KEY);
    // Protected routes still authenticate first.
    if (!isPublic) expect((await t.request(method, path)).status).toBe(401);
  }
}

describe('connect, callback and refresh answer 503 not_configured without the vault key or app credentials', () => {
  it('with neither', async () => {
    const t = await startTestApp();
    apps.push(t);
    await expectAll503(t, /KIT_VAULT_KEY.*platformA app credentials/, null);
  });

  it('with app credentials but no vault key', async () => {
    const t = await startTestApp(APP_CREDENTIALS);
    apps.push(t);
    await expectAll503(t, /KIT_VAULT_KEY/, /app credentials/);
  });

  it('with a vault key but no app credentials', async () => {
    const t = await startTestApp({ KIT_VAULT_KEY: VAULT_KEY });
    apps.push(t);
    await expectAll503(t, /PLATFORMA_CLIENT_ID/, /KIT_VAULT_KEY/);
  });
});

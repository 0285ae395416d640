import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuilt } from '../../scripts/ensure-console.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { freePort } from './browser.ts';

/** The console over plain HTTP: served at `/` without a key, and the return from a connect. */
describe('console routes', () => {
  let sandbox: Sandbox;
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    if (!ensureConsoleBuilt(() => {})) throw new Error('the console did not build: run npm run build:web');
    sandbox = await startSandbox({ autoApprove: true });
    const port = await freePort();
    t = await startTestApp({
      PORT: String(port),
      KIT_VAULT_KEY: randomBytes(32).toString('base64'),
      ...sandbox.platformA.env(`http://127.0.0.1:${port}/v1/channels/platformA/callback`),
    });
    key = (await t.signup()).apiKey;
  }, 240_000);

  afterAll(async () => {
    await t?.close();
    await sandbox?.close();
  });

  /** Starts a connect and follows the sandbox's redirect; returns the callback URL and the state. */
  async function consentedCallback() {
    const connect = await t.request('POST', '/v1/channels/platformA/connect', { key });
    expect(connect.status).toBe(200);
    const res = await fetch(connect.body.url, { redirect: 'manual' });
    return { callback: res.headers.get('location')!, state: connect.body.state as string };
  }

  it('serves the console at / without a key, with cacheable hashed assets', async () => {
    const page = await fetch(`${t.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const js = await fetch(t.url + asset);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${t.url}/assets/../../package.json`)).status).not.toBe(200);
    expect((await fetch(`${t.url}/assets/missing.js`)).status).toBe(404);
  });

  it('leaves the API as it was: unknown /v1 paths answer the JSON 404, protected routes 401', async () => {
    const missing = await t.request('GET', '/v1/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    expect((await t.request('GET', '/v1/posts')).status).toBe(401);
  });

  it('answers the callback with JSON when the flow did not begin in the console', async () => {
    const { callback } = await consentedCallback();
    const res = await fetch(callback, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { channel: { status: string } }).channel.status).toBe('connected');
  });

  it('answers JSON when the console cookie names another flow', async () => {
    const { callback } = await consentedCallback();
    const res = await fetch(callback, {
      redirect: 'manual',
      headers: { cookie: 'kit_console_connect=other-state' },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { channel: { id: string } }).channel.id).toMatch(/^chn_/);
  });

  it('sends the browser back to the console when the flow began there, and clears the cookie', async () => {
    const { callback, state } = await consentedCallback();
    const res = await fetch(callback, {
      redirect: 'manual',
      headers: { cookie: `theme=dark; kit_console_connect=${encodeURIComponent(state)}` },
    });
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(location).toMatch(/^\/#\/channels\?connected=chn_/);
    expect(res.headers.get('set-cookie')).toMatch(/^kit_console_connect=; Path=\/v1\/channels; Max-Age=0/);
    const id = new URLSearchParams(location.split('?')[1]).get('connected')!;
    expect((await t.request('GET', `/v1/channels/${id}`, { key })).body.channel.status).toBe('connected');
  });

  it("carries the callback's error back to the console in words", async () => {
    const { callback, state } = await consentedCallback();
    const cookie = `kit_console_connect=${encodeURIComponent(state)}`;
    expect((await fetch(callback, { redirect: 'manual', headers: { cookie } })).status).toBe(303);
    // The state is spent: a replay fails, and the console hears why.
    const replay = await fetch(callback, { redirect: 'manual', headers: { cookie } });
    expect(replay.status).toBe(303);
    const query = new URLSearchParams(replay.headers.get('location')!.split('?')[1]);
    expect(query.get('connectError')).toBe('invalid_request');
    expect(query.get('message')).toMatch(/state/i);
  });
});

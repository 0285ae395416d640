import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { callOk } from '../mcp/helpers.ts';
import { mcpClientWithToken, mcpStatus, pkcePair, token } from '../mcp/oauth-helpers.ts';
import { CHROMIUM, hasChromium, screenshot, unlabelledControls } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * An agent connecting to Postkit the way connectors do: it registers, sends the person's
 * browser to /oauth/authorize, the console's consent page (signed in with the account's key)
 * shows who asks and what for, the person approves, and the browser lands on the agent's
 * loopback redirect URI with a code the agent exchanges (PKCE) for a token it uses on /mcp.
 */
if (!hasChromium) console.warn(`OAuth consent browser test skipped: ${CHROMIUM} is missing`);

describe.skipIf(!hasChromium)('OAuth consent in the console (Chromium)', { timeout: 120_000 }, () => {
  let world: BrowserWorld;
  let t: TestApp;
  let receiver: Server;
  let redirectUri: string;
  const arrivals: URLSearchParams[] = [];
  let errors: string[];

  beforeAll(async () => {
    // Each test signs up its own account; no channel is needed.
    world = await startBrowserWorld({}, { connect: [] });
    ({ t, errors } = world);
    // The agent's loopback redirect target, as a CLI or desktop agent runs one.
    receiver = createServer((req, res) => {
      // Only the redirect counts (the browser also asks for /favicon.ico).
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/callback') arrivals.push(url.searchParams);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>You can close this window</h1>');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    redirectUri = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/callback`;
  }, 120_000);
  afterAll(async () => {
    await world?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  async function startAgent(name: string) {
    arrivals.length = 0;
    const reg = await t.request('POST', '/oauth/register', {
      body: { client_name: name, redirect_uris: [redirectUri] },
    });
    expect(reg.status).toBe(201);
    const { verifier, challenge } = pkcePair();
    const params = new URLSearchParams({
      response_type: 'code',
      client_id: reg.body.client_id,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'read write publish',
      state: `state-${name.length}`,
      resource: `${t.url}/mcp`,
    });
    return { clientId: reg.body.client_id as string, verifier, url: `${t.url}/oauth/authorize?${params}` };
  }

  /**
   * Waits until the browser has finished loading the agent's callback page (`answer` is the
   * query parameter it carries): the approve or deny redirect is a navigation, and a `goto`
   * issued while it is in flight is interrupted by it. Then the receiver has seen it once.
   */
  async function waitForCallback(page: Page, answer: 'code' | 'error') {
    await page.waitForURL((u) => u.href.startsWith(redirectUri) && u.searchParams.has(answer));
    expect(arrivals.length).toBe(1);
    return arrivals[0]!;
  }

  it('sign in, read the request in plain words, approve; the token works on /mcp; Connected apps revokes it', async () => {
    const { apiKey } = await t.signup();
    const agent = await startAgent('Claude Test');
    const page = await world.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(agent.url);
    // Not signed in yet: the console's sign-in, then the consent page itself (not Compose).
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const heading = page.getByRole('heading', { name: 'Claude Test wants to use your Postkit account' });
    await heading.waitFor();
    const card = await page.locator('.consent').textContent();
    expect(card).toContain(new URL(redirectUri).host);
    expect(card).toContain(
      'Read: see your posts, calendar, channels, brands, voices, analytics and insights.',
    );
    expect(card).toContain(
      'Publish: schedule, cancel and publish posts on your connected social accounts, where everyone can see them.',
    );
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, 'oauth-consent');
    // The person allows reading and writing but not publishing.
    await page.getByRole('checkbox', { name: /Publish/ }).uncheck();
    await page.getByRole('button', { name: 'Approve' }).click();
    const back = await waitForCallback(page, 'code');
    expect(back.get('state')).toBe('state-11');
    const tokens = await token(t, {
      grant_type: 'authorization_code',
      code: back.get('code')!,
      client_id: agent.clientId,
      code_verifier: agent.verifier,
      redirect_uri: redirectUri,
      resource: `${t.url}/mcp`,
    });
    expect(tokens.status).toBe(200);
    expect(tokens.body.scope).toBe('read write');
    const client = await mcpClientWithToken(t.url, tokens.body.access_token);
    const { data } = await callOk(client, 'list_posts');
    expect(data.posts).toEqual([]);
    await client.close();

    await page.goto(`${t.url}/#/connected-apps`);
    const row = page.locator('.connected-app', { hasText: 'Claude Test' });
    await row.waitFor();
    expect(await row.textContent()).toMatch(
      /May read, write drafts and use the model\. Returns to 127\.0\.0\.1:\d+\./,
    );
    expect(await row.textContent()).toMatch(/last used/);
    expect(await row.textContent()).toMatch(/ by you; last used/);
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, 'oauth-connected-apps');
    page.once('dialog', (dialog) => dialog.accept());
    await row.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText('No connected apps.').waitFor();
    expect(await mcpStatus(t, tokens.body.access_token)).toBe(401);
    await page.context().close();
  });

  it('deny sends the browser back with access_denied and grants nothing', async () => {
    const { apiKey } = await t.signup();
    const agent = await startAgent('Untrusted');
    // Already signed in: the key is in place before the console's first script runs, so the
    // consent page is reached in one navigation (no unbounded evaluate on a loading page).
    const page = await world.newPage({ key: apiKey });
    await page.goto(agent.url);
    await page.getByRole('heading', { name: 'Untrusted wants to use your Postkit account' }).waitFor();
    await page.getByRole('button', { name: 'Deny' }).click();
    const back = await waitForCallback(page, 'error');
    expect(back.get('error')).toBe('access_denied');
    expect(back.get('code')).toBeNull();
    expect((await t.request('GET', '/v1/oauth/apps', { key: apiKey })).body.apps).toEqual([]);
    await page.context().close();
    expect(errors).toEqual([]);
  });
});

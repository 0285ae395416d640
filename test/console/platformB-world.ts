import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { ensureConsoleBuilt } from '../../scripts/ensure-console.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { freePort } from './browser.ts';

export interface PlatformBWorld {
  sandbox: Sandbox;
  t: TestApp;
  /** A new account's API key, its platformB channel already connected. */
  key: string;
  channelId: string;
  close(): Promise<void>;
}

/**
 * The built console served by the API on the offline engine, with the sandbox on loopback and a
 * new account whose platformB channel is connected through the API (the sandbox approves at once
 * and sends the browser to the callback): where the browser tests that start on platformB begin.
 * With `alsoPlatformA`, a platformA channel is connected too (`channelId` stays platformB's).
 */
export async function startPlatformBWorld(
  env: Record<string, string> = {},
  options: { alsoPlatformA?: boolean } = {},
): Promise<PlatformBWorld> {
  if (!ensureConsoleBuilt(() => {})) throw new Error('the console did not build: run npm run build:web');
  const sandbox = await startSandbox({ autoApprove: true });
  const port = await freePort();
  const t = await startTestApp({
    PORT: String(port),
    KIT_VAULT_KEY: randomBytes(32).toString('base64'),
    LLM_PROVIDER: 'heuristic',
    ...sandbox.platformB.env(`http://127.0.0.1:${port}/v1/channels/platformB/callback`),
    ...(options.alsoPlatformA
      ? sandbox.platformA.env(`http://127.0.0.1:${port}/v1/channels/platformA/callback`)
      : {}),
    ...env,
  });
  const key = (await t.signup()).apiKey;
  for (const platform of options.alsoPlatformA ? ['platformB', 'platformA'] : ['platformB']) {
    const started = await t.request('POST', `/v1/channels/${platform}/connect`, { key });
    expect(started.status, started.text).toBe(200);
    const consent = await fetch(started.body.url, { redirect: 'manual' });
    const back = await fetch(consent.headers.get('location')!, { redirect: 'manual' });
    expect(back.status, await back.text()).toBeLessThan(400);
  }
  const channels = (await t.request('GET', '/v1/channels', { key })).body.channels;
  expect(channels.map((c: { platform: string; status: string }) => [c.platform, c.status]).sort()).toEqual(
    (options.alsoPlatformA ? ['platformA', 'platformB'] : ['platformB']).map((p) => [p, 'connected']),
  );
  return {
    sandbox,
    t,
    key,
    channelId: channels.find((c: { platform: string }) => c.platform === 'platformB').id,
    async close() {
      await t.close();
      await sandbox.close();
    },
  };
}

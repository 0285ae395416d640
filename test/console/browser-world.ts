import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ensureConsoleBuilt } from '../../scripts/ensure-console.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.ts';
import type { StartOptions } from '../../src/server.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { freePort, launchChromium, openSignedIn } from './browser.ts';

/**
 * The one fixture of the console's browser tests: the built console served by the API on the
 * offline engine, the sandbox platforms on loopback, a new account, and Debian's Chromium. Every
 * browser suite starts here; what differs between them is an option, not a copy of the setup.
 */

export type SandboxPlatform = 'platformA' | 'platformB';

export interface BrowserWorldOptions {
  /** Also configure and connect platformA (`channelId` stays platformB's). */
  alsoPlatformA?: boolean;
  /** The platforms the app is configured for (default platformB, and platformA with `alsoPlatformA`). */
  platforms?: SandboxPlatform[];
  /** Which of them are connected through the API before the test (default: all of `platforms`). */
  connect?: SandboxPlatform[];
  /** The sandbox approves consent at once (default), or shows its consent page to click through. */
  autoApprove?: boolean;
  /** How the service starts, e.g. `{ autoStartRunner: true }` for suites that watch posts publish. */
  service?: StartOptions;
}

export interface BrowserWorld {
  sandbox: Sandbox;
  t: TestApp;
  browser: Browser;
  /** A new account's API key, with the channels of `connect` already connected. */
  key: string;
  accountId: string;
  /** The connected channel's id per platform. */
  channels: Partial<Record<SandboxPlatform, string>>;
  /** The connected platformB channel's id (throws when the world connected none). */
  readonly channelId: string;
  /** Errors thrown by the pages this world opened (`open`, `newPage`). */
  errors: string[];
  /** A new page signed in with `key` (or `opts.key`) at the hash route `route`, once `heading` shows. */
  open(
    route: string,
    heading: string,
    opts?: {
      key?: string;
      timezoneId?: string;
      viewport?: { width: number; height: number };
    },
  ): Promise<Page>;
  /** A new page in a fresh context (en-US), signed out, its errors collected in `errors`. */
  newPage(opts?: {
    timezoneId?: string;
    viewport?: { width: number; height: number };
    /** Sets the API key before the console's first script runs, so the first navigation is signed in. */
    key?: string;
  }): Promise<Page>;
  /** Closes the browser, then the app, then the sandbox. */
  close(): Promise<void>;
}

/** Starts the world; on a failure part way, what started is closed before the error is thrown. */
export async function startBrowserWorld(
  env: Record<string, string> = {},
  options: BrowserWorldOptions = {},
): Promise<BrowserWorld> {
  if (!ensureConsoleBuilt(() => {})) throw new Error('the console did not build: run npm run build:web');
  const platforms = options.platforms ?? (options.alsoPlatformA ? ['platformB', 'platformA'] : ['platformB']);
  const connect = options.connect ?? platforms;
  if (options.autoApprove === false && connect.length > 0)
    throw new Error('connecting through the API needs the sandbox to approve at once (autoApprove)');
  const cleanups: Array<() => Promise<unknown>> = [];
  const closeAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const sandbox = await startSandbox({ autoApprove: options.autoApprove ?? true });
    cleanups.push(() => sandbox.close());
    const port = await freePort();
    const callbacks: Record<string, string> = {};
    for (const p of platforms)
      Object.assign(callbacks, sandbox[p].env(`http://127.0.0.1:${port}/v1/channels/${p}/callback`));
    const t = await startTestApp(
      {
        PORT: String(port),
        KIT_VAULT_KEY: randomBytes(32).toString('base64'),
        LLM_PROVIDER: 'heuristic',
        ...callbacks,
        ...env,
      },
      options.service,
    );
    cleanups.push(() => t.close());
    const { apiKey: key, accountId } = await t.signup();
    const channels = await connectThroughApi(t, key, connect);
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const errors: string[] = [];
    const world: BrowserWorld = {
      sandbox,
      t,
      browser,
      key,
      accountId,
      channels,
      get channelId() {
        if (!channels.platformB) throw new Error('this browser world connected no platformB channel');
        return channels.platformB;
      },
      errors,
      open: (route, heading, opts = {}) =>
        openSignedIn(browser, { ...opts, url: t.url, key: opts.key ?? key, route, heading, errors }),
      async newPage(opts = {}) {
        const context = await browser.newContext({
          locale: 'en-US',
          viewport: opts.viewport ?? { width: 1280, height: 900 },
          ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
        });
        if (opts.key) await context.addInitScript((k) => localStorage.setItem('postkit.apiKey', k), opts.key);
        const page = await context.newPage();
        page.on('pageerror', (err) => errors.push(err.message));
        page.setDefaultTimeout(15_000);
        return page;
      },
      close: closeAll,
    };
    return world;
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/** Connects each platform for `key` the way a browser would, the sandbox approving at once. */
async function connectThroughApi(t: TestApp, key: string, platforms: SandboxPlatform[]) {
  for (const platform of platforms) {
    const started = await t.request('POST', `/v1/channels/${platform}/connect`, { key });
    expect(started.status, started.text).toBe(200);
    const consent = await fetch(started.body.url, { redirect: 'manual' });
    const back = await fetch(consent.headers.get('location')!, { redirect: 'manual' });
    expect(back.status, await back.text()).toBeLessThan(400);
  }
  const listed: { id: string; platform: SandboxPlatform; status: string }[] = (
    await t.request('GET', '/v1/channels', { key })
  ).body.channels;
  expect(listed.map((c) => [c.platform, c.status]).sort()).toEqual(
    [...platforms].sort().map((p) => [p, 'connected']),
  );
  return Object.fromEntries(listed.map((c) => [c.platform, c.id])) as BrowserWorld['channels'];
}

import type { Browser, Page } from 'playwright-core';
import { launchChromium, openSignedIn } from './browser.ts';
import { type PlatformBWorld, startPlatformBWorld } from './platformB-world.ts';

/** What `open` may set beyond the route: another account's key, the browser's zone and size. */
export interface OpenOptions {
  key?: string;
  timezoneId?: string;
  viewport?: { width: number; height: number };
}

/** The platformB world (platformB-world.ts) and Debian's Chromium, for the console's browser tests. */
export interface BrowserWorld extends PlatformBWorld {
  browser: Browser;
  /** What the pages threw (`pageerror`), for a test to assert empty. */
  errors: string[];
  /** A new page signed in as the world's account (or `options.key`), at `route` once `heading` shows. */
  open(route: string, heading: string, options?: OpenOptions): Promise<Page>;
}

export async function startBrowserWorld(
  env: Record<string, string> = {},
  options: { alsoPlatformA?: boolean } = {},
): Promise<BrowserWorld> {
  const world = await startPlatformBWorld(env, options);
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (err) {
    await world.close();
    throw err;
  }
  const errors: string[] = [];
  return {
    ...world,
    browser,
    errors,
    open: (route, heading, { key, ...rest } = {}) =>
      openSignedIn(browser, { url: world.t.url, key: key ?? world.key, route, heading, errors, ...rest }),
    async close() {
      await browser.close();
      await world.close();
    },
  };
}

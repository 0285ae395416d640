import type { Browser } from 'playwright-core';
import { launchChromium } from './browser.ts';
import { type PlatformBWorld, startPlatformBWorld } from './platformB-world.ts';

/** The platformB world (platformB-world.ts) and Debian's Chromium, for the console's browser tests. */
export interface BrowserWorld extends PlatformBWorld {
  browser: Browser;
}

/** Starts both; `close()` closes the browser, then the world. */
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
  return {
    ...world,
    browser,
    async close() {
      await browser.close();
      await world.close();
    },
  };
}

import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { CHROMIUM, hasChromium, openSignedIn, screenshot } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * A newcomer's walk, at 1366 px and at 390 px: a new account (no channel, no post, no history)
 * visits every hash route the console's router knows, through the navigation where the page is
 * in it, and each shows its own page (its own heading; not Compose standing in), with no error
 * in the browser's console and nothing wider than the screen.
 */
if (!hasChromium)
  console.warn(`console walk test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

/** Every route App.tsx routes: its PAGES and LINKED_PAGES, and the paths it tests for by name. */
function routerPaths(): string[] {
  const app = readFileSync(new URL('../../web/src/App.tsx', import.meta.url), 'utf8');
  const paths = [...app.matchAll(/path: '(\/[^']*)'|route\.path === '(\/[^']*)'/g)].map((m) => m[1] ?? m[2]!);
  return [...new Set(paths)].sort();
}

/** Each route's page heading; `nav` when the page is in the navigation (reached by clicking it). */
const EXPECTED: Record<string, { heading: string; nav?: string }> = {
  '/compose': { heading: 'Compose', nav: 'Compose' },
  '/calendar': { heading: 'Calendar', nav: 'Calendar' },
  '/posts': { heading: 'Posts', nav: 'Posts' },
  '/queue': { heading: 'Queue', nav: 'Queue' },
  '/bulk': { heading: 'Bulk upload', nav: 'Bulk upload' },
  '/channels': { heading: 'Channels', nav: 'Channels' },
  '/media': { heading: 'Media library', nav: 'Media' },
  '/analytics': { heading: 'Analytics', nav: 'Analytics' },
  '/plan': { heading: 'Plan', nav: 'Plan' },
  '/brands': { heading: 'Brands & voices', nav: 'Brands & voices' },
  '/webhooks': { heading: 'Webhooks', nav: 'Webhooks' },
  '/connected-apps': { heading: 'Connected apps', nav: 'Connected apps' },
  '/history': { heading: 'History', nav: 'History' },
  '/insights': { heading: 'Insights', nav: 'Insights' },
  '/team': { heading: 'Team', nav: 'Team' },
  '/approvals': { heading: 'Approvals', nav: 'Approvals' },
  '/keys': { heading: 'API keys', nav: 'API keys' },
  '/settings': { heading: 'Settings', nav: 'Settings' },
  '/model': { heading: 'Language model' },
  '/authorize': { heading: 'Connect an app to Postkit' },
  '/join': { heading: 'Join a workspace' },
  // Opened from a post's row with ?id=; bare, it says which post to open.
  '/post': { heading: 'Post' },
  // The bare address opens Compose; signed in, so does the sign-in address.
  '/': { heading: 'Compose' },
  '/signin': { heading: 'Compose' },
};

describe.skipIf(!hasChromium)('a newcomer walks every route', { timeout: 120_000 }, () => {
  let world: BrowserWorld;
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    world = await startBrowserWorld();
    ({ browser } = world);
    t = world.t;
  }, 90_000);

  afterAll(async () => {
    await world?.close();
  });

  it('the walk below names every route the router has', () => {
    expect(routerPaths()).toEqual(Object.keys(EXPECTED).sort());
  });

  /** Waits until the page's own heading shows and nothing is still loading. */
  const settle = async (page: Page, heading: string) => {
    await page.getByRole('heading', { name: heading, exact: true, level: 1 }).waitFor();
    await expect
      .poll(() => page.locator('[aria-busy="true"], .working').count(), { timeout: 10_000 })
      .toBe(0);
  };

  for (const viewport of [
    { width: 1366, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`at ${viewport.width} px every route shows its own page, without a console error`, async () => {
      const { apiKey } = await t.signup();
      const errors: string[] = [];
      const page = await openSignedIn(browser, {
        url: t.url,
        key: apiKey,
        route: '/',
        heading: 'Compose',
        errors,
        viewport,
      });
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
      });
      const nav = page.getByRole('navigation', { name: 'Pages' });
      for (const [path, { heading, nav: label }] of Object.entries(EXPECTED)) {
        if (label) await nav.getByRole('link', { name: label, exact: true }).click();
        else await page.goto(`${t.url}/#${path}`);
        await settle(page, heading);
        expect(new URL(page.url()).hash, path).toBe(`#${path}`);
        if (heading !== 'Compose')
          expect(await page.getByRole('heading', { name: 'Compose', level: 1 }).count(), path).toBe(0);
        expect(await page.getByRole('heading', { name: 'No such page' }).count(), path).toBe(0);
        if (label) expect(await nav.locator('[aria-current="page"]').textContent(), path).toBe(label);
        const overflow = Number(
          await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'),
        );
        expect(overflow, `${path} is wider than ${viewport.width} px`).toBe(0);
        expect(errors, path).toEqual([]);
        await screenshot(page, `walk-${viewport.width}${path.replaceAll('/', '-')}`);
      }
      // An address of no page says so rather than showing Compose.
      await page.goto(`${t.url}/#/no-such-page`);
      await settle(page, 'No such page');
      expect(await page.getByRole('heading', { name: 'Compose', level: 1 }).count()).toBe(0);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});

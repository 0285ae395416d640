import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { CHROMIUM, hasChromium } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * The Calendar takes the browser's locale and first weekday, in Debian's Chromium: an en-GB
 * browser sees a Monday-first month and day/month dates in the week view; an en-US one a
 * Sunday-first month and month/day dates. Channel names in the legend carry their platform.
 */
if (!hasChromium) {
  console.warn(`console calendar-locale test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
}

describe.skipIf(!hasChromium)('the Calendar in the browser locale', { timeout: 60_000 }, () => {
  let world: BrowserWorld;
  let t: TestApp;
  let browser: Browser;
  let key: string;
  const browserErrors: string[] = [];

  const calendarIn = async (locale: string): Promise<Page> => {
    const context = await browser.newContext({ locale, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (err) => browserErrors.push(err.message));
    page.setDefaultTimeout(15_000);
    await page.goto(t.url);
    await page.evaluate((k) => localStorage.setItem('postkit.apiKey', k), key);
    await page.goto(`${t.url}/#/calendar`);
    await page.reload();
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    await page.locator('th.fc-col-header-cell').first().waitFor();
    return page;
  };
  const headers = (page: Page) =>
    page.locator('th.fc-col-header-cell').evaluateAll((els) => els.map((e) => e.textContent?.trim() ?? ''));

  beforeAll(async () => {
    world = await startBrowserWorld();
    ({ t, key, browser } = world);
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  it('en-GB: Monday first, dates day/month', async () => {
    const page = await calendarIn('en-GB');
    expect((await headers(page))[0]).toBe('Mon');
    await page.getByRole('button', { name: 'Week' }).click();
    await expect.poll(async () => (await headers(page))[0]).toMatch(/^Mon \d{2}\/\d{2}$/);
    const first = (await headers(page))[0]!;
    const [day, month] = first.slice(4).split('/').map(Number);
    // Day first: the week's Monday, as the browser's own en-GB date says it.
    const monday = await page.evaluate(() => {
      const d = new Date();
      d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
      return [d.getDate(), d.getMonth() + 1];
    });
    expect([day, month]).toEqual(monday);
    await page
      .getByRole('list', { name: 'Channels' })
      .getByText(/\(platformB\)$/)
      .waitFor();
    await page.context().close();
  });

  it('en-US: Sunday first', async () => {
    const page = await calendarIn('en-US');
    expect((await headers(page))[0]).toBe('Sun');
    await page.context().close();
    expect(browserErrors).toEqual([]);
  });
});

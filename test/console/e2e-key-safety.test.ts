import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { CHROMIUM, hasChromium, screenshot } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * The key is safe from the first second, in Debian's Chromium against the real API: sign-up
 * stores the key as soon as it is shown, so a reload before "Continue" keeps the person signed
 * in; every page then says, once, that only this browser holds the key, until it is downloaded
 * (the file holds the key) or copied.
 */
if (!hasChromium) {
  console.warn(`console key-safety test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
}

describe.skipIf(!hasChromium)('the new key survives a reload in a real browser', { timeout: 60_000 }, () => {
  let world: BrowserWorld;
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  const email = `key-${randomBytes(3).toString('hex')}@example.com`;
  const browserErrors: string[] = [];

  beforeAll(async () => {
    world = await startBrowserWorld();
    ({ t, browser } = world);
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (err) => browserErrors.push(err.message));
    page.setDefaultTimeout(15_000);
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  it('signs up, reloads before Continue, and is still signed in with the key kept', async () => {
    await page.goto(t.url);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Create account' }).click();
    const key = (await page.locator('code.secret-value').textContent())!;
    expect(key).toMatch(/^kit_sk_/);
    await page.getByText('This browser keeps it already').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Compose' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('postkit.apiKey'))).toBe(key);
    await page.getByText(email).first().waitFor();
    const me = await t.request('GET', '/v1/account', { key });
    expect(me.body.account.email).toBe(email);

    // The one warning, on every page until the key is saved.
    const notice = page.getByRole('alert', { name: 'Your API key is not saved yet' });
    await notice.getByText('Only this browser holds it so far').waitFor();
    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByRole('link', { name: 'Queue', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    expect(await notice.count()).toBe(1);
    await screenshot(page, 'key-not-saved');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      notice.getByRole('button', { name: 'Download the key' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('postkit-api-key.txt');
    const file = await readFile((await download.path())!, 'utf8');
    expect(file).toContain(key);
    expect(file).toContain(email);
    await expect.poll(() => notice.count()).toBe(0);
    await page.reload();
    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    expect(await notice.count()).toBe(0);
    expect(browserErrors).toEqual([]);
  });
});

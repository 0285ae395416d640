import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { CHROMIUM, hasChromium, openSignedIn, screenshot } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * The Queue page in Debian's Chromium against the real API: the channel's slots and the
 * suggested ones show, a suggested slot is added and saved, and a draft dragged onto the
 * first free slot is scheduled at exactly that time.
 */
if (!hasChromium) console.warn(`console queue test skipped: ${CHROMIUM} is missing`);

describe.skipIf(!hasChromium)('the Queue page in a real browser', { timeout: 60_000 }, () => {
  let world: BrowserWorld;
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let key: string;
  let channelId: string;
  const errors: string[] = [];

  beforeAll(async () => {
    world = await startBrowserWorld();
    ({ t, key, channelId, browser } = world);
    const put = await t.request('PUT', `/v1/channels/${channelId}/queue`, {
      key,
      body: { timezone: 'Europe/Paris', slots: [{ day: 1, time: '09:00' }] },
    });
    expect(put.status, put.text).toBe(200);
    const draft = await t.request('POST', '/v1/posts', {
      key,
      body: { text: 'A draft waiting for its slot in the queue', channelId },
    });
    expect(draft.status, draft.text).toBe(201);
    page = await openSignedIn(browser, { url: t.url, key, route: '/queue', heading: 'Queue', errors });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('shows the slots and the suggestions, saves an added slot, and schedules a dragged draft', async () => {
    await page.getByText('Monday 09:00').waitFor();
    await page.getByText('Tuesday 08:00').first().waitFor();
    // Add the first suggestion (the general figures: this account has no history) and save.
    await page
      .getByRole('listitem')
      .filter({ hasText: 'Tuesday 08:00' })
      .getByRole('button', { name: 'Add' })
      .click();
    await page.getByRole('button', { name: 'Save slots' }).click();
    await expect
      .poll(async () => (await t.request('GET', `/v1/channels/${channelId}/queue`, { key })).body.queue.slots)
      .toEqual([
        { day: 1, time: '09:00' },
        { day: 2, time: '08:00' },
      ]);
    const upcoming = (await t.request('GET', `/v1/channels/${channelId}/queue?count=14`, { key })).body
      .upcoming;
    const free = page.locator('ol.upcoming li[data-free="true"]').first();
    await free.waitFor();
    await page.getByText('A draft waiting for its slot in the queue').dragTo(free);
    await page.getByText(/^Scheduled for /).waitFor();
    const posts = (await t.request('GET', '/v1/posts', { key })).body.posts;
    const placed = posts.find(
      (p: { text: string }) => p.text === 'A draft waiting for its slot in the queue',
    );
    expect(placed).toMatchObject({ status: 'scheduled', scheduledFor: upcoming[0].at });
    await screenshot(page, 'queue');
    expect(errors).toEqual([]);
  });
});

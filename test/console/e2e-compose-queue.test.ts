import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { setQueueSlots } from '../helpers/queue-slots.ts';
import { CHROMIUM, hasChromium, openSignedIn, screenshot } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * "Add to queue" from Compose, in Debian's Chromium against the real API and the sandbox's
 * platformB: the next free slot is shown before the click and the post lands there (a new post,
 * then one autosaved as a draft first, which takes the slot after); the Queue page then lists
 * each taken slot by the post's opening words and its channel, never an id.
 */
if (!hasChromium) {
  console.warn(`console add-to-queue test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
}

const tag = randomBytes(3).toString('hex');
const FIRST = `Queue ${tag}: the three checks we run before every release, and why each one exists.`;
const SECOND = `Queue ${tag}, later: what a slow query log taught us about our own dashboards.`;

describe.skipIf(!hasChromium)('Add to queue from Compose in a real browser', { timeout: 90_000 }, () => {
  let world: BrowserWorld;
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let key: string;
  let channelId: string;
  let upcoming: { at: number }[];
  const browserErrors: string[] = [];
  const postOf = async (text: string) =>
    (await t.request('GET', '/v1/posts?limit=100', { key })).body.posts.find(
      (p: { text: string }) => p.text === text,
    );

  beforeAll(async () => {
    world = await startBrowserWorld();
    ({ t, key, browser, channelId } = world);
    upcoming = await setQueueSlots(t, {
      key,
      channelId,
      timezone: 'Europe/London',
      slots: [
        { day: 2, time: '09:00' },
        { day: 4, time: '17:30' },
      ],
    });
    page = await openSignedIn(browser, {
      url: t.url,
      key,
      route: '/compose',
      heading: 'Compose',
      errors: browserErrors,
    });
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  it('shows the next free slot, then schedules the new post there', async () => {
    await page.getByLabel('Post', { exact: true }).fill(FIRST);
    const line = page.locator('#queue-line');
    await line.getByText(/^Add to queue takes the next free slot of .+ \(platformB\): /).waitFor();
    const shown = await page.evaluate(
      (at) =>
        // The browser's own locale, as the console's formatWhen uses it.
        new Intl.DateTimeFormat(undefined, {
          weekday: 'short',
          day: 'numeric',
          month: 'short',
          hour: '2-digit',
          minute: '2-digit',
        }).format(at),
      upcoming[0]!.at,
    );
    expect(await line.textContent()).toContain(shown);
    await page.getByRole('button', { name: 'Add to queue' }).click();
    await page.getByText(/^Added to the queue: scheduled for .+, the next free slot\./).waitFor();
    expect(await postOf(FIRST)).toMatchObject({ status: 'scheduled', scheduledFor: upcoming[0]!.at });
  });

  it('an autosaved draft added to the queue takes the slot after', async () => {
    await page.getByRole('button', { name: 'Write another' }).click();
    await page.getByLabel('Post', { exact: true }).fill(SECOND);
    await page.getByText(/^Draft saved at/).waitFor();
    await page.getByRole('button', { name: 'Add to queue' }).click();
    await page.getByText(/^Added to the queue/).waitFor();
    expect(await postOf(SECOND)).toMatchObject({ status: 'scheduled', scheduledFor: upcoming[1]!.at });
    // One post, not a second beside the draft.
    const all = (await t.request('GET', '/v1/posts?limit=100', { key })).body.posts;
    expect(all.filter((p: { text: string }) => p.text === SECOND)).toHaveLength(1);
  });

  it('the Queue page names each taken slot by its opening words and channel, never an id', async () => {
    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByRole('link', { name: 'Queue', exact: true })
      .click();
    const list = page.locator('ol.upcoming');
    // Opening words: the first line, cut at a word near 80 characters.
    const first = page.getByRole('link', {
      name: /^Queue \w+: the three checks we run before every release/,
    });
    await list.locator('li').filter({ has: first }).waitFor();
    await list.getByRole('link', { name: SECOND }).waitFor();
    const taken = list.locator('li').filter({ has: first });
    expect(await taken.textContent()).toMatch(/on .+ \(platformB\), scheduled/);
    expect(await page.locator('main').textContent()).not.toMatch(/pst_|chn_/);
    await screenshot(page, 'queue-named');
    expect(browserErrors).toEqual([]);
  });
});

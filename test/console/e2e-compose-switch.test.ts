import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { CHROMIUM, hasChromium, openSignedIn } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * Switching the channel after the draft autosaved, in Debian's Chromium against the real API and
 * both sandbox platforms: the platform follows the channel, so the saved draft moves with it and
 * Publish now publishes on the new platform. A thread written for platformB, moved to platformA
 * (no threads), is offered as one post or kept in parts, each in one click.
 */
if (!hasChromium) {
  console.warn(`console channel-switch test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
}

const tag = randomBytes(3).toString('hex');
const TEXT = `Switch ${tag}: we moved our nightly build to a 6-minute run by caching per lockfile.`;
const PART_2 = `Switch ${tag}, part 2: restores went from 9 minutes to 40 seconds.`;

describe.skipIf(!hasChromium)(
  'switching channel after autosave in a real browser',
  { timeout: 90_000 },
  () => {
    let world: BrowserWorld;
    let t: TestApp;
    let browser: Browser;
    let page: Page;
    let key: string;
    const browserErrors: string[] = [];
    const useChannel = async (platform: string) => {
      const select = page.getByRole('combobox', { name: /^Channel/ });
      const value = await select.locator('option', { hasText: `(${platform})` }).getAttribute('value');
      await select.selectOption(value!);
    };
    const drafts = async () =>
      (await t.request('GET', '/v1/posts?status=draft', { key })).body.posts.filter((p: { text: string }) =>
        p.text.startsWith(`Switch ${tag}`),
      );

    beforeAll(async () => {
      world = await startBrowserWorld(
        { PLATFORMA_BACKOFF_SCALE: '0.001', PLATFORMB_BACKOFF_SCALE: '0.001' },
        { alsoPlatformA: true },
      );
      ({ t, key, browser } = world);
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

    it('platformA draft saved, switched to platformB: Publish now publishes on platformB', async () => {
      await useChannel('platformA');
      await page.getByLabel('Post', { exact: true }).fill(TEXT);
      await page.getByText(/^Draft saved at/).waitFor();
      await expect
        .poll(async () => (await drafts()).map((p: { platform: string }) => p.platform))
        .toEqual(['platformA']);

      await useChannel('platformB');
      // The draft follows the channel: autosaved again, now on platformB, with no error on the form.
      await expect
        .poll(async () => (await drafts()).map((p: { platform: string }) => p.platform), { timeout: 15_000 })
        .toEqual(['platformB']);
      expect(await page.getByText('Something in the form needs fixing').count()).toBe(0);

      await page.getByRole('button', { name: 'Publish now' }).click();
      // The form's own help text starts with "Published right after the post": wait for the sandbox.
      await expect
        .poll(() => world.sandbox.platformB.state.listTweets().filter((tw) => tw.text === TEXT).length)
        .toBe(1);
      expect(world.sandbox.platformA.state.listPosts().filter((p) => p.text === TEXT)).toHaveLength(0);
      expect(browserErrors).toEqual([]);
    });

    it('a platformB thread moved to platformA is offered as one post, in one click', async () => {
      await page.getByRole('button', { name: 'Write another' }).click();
      await useChannel('platformB');
      await page.getByLabel('Post', { exact: true }).fill(`${TEXT} (thread)`);
      await page.getByRole('button', { name: 'Add a part' }).click();
      await page.getByLabel('Part 2', { exact: true }).fill(PART_2);
      await page.getByText(/^Draft saved at/).waitFor();

      await useChannel('platformA');
      const offer = page.getByRole('group', { name: 'Thread' });
      await offer.getByText('platformA has no threads').waitFor();
      // Kept in parts: nothing is lost, the parts wait for a platform that carries them.
      await offer.getByRole('button', { name: 'Join into one post' }).click();
      const joined = `${TEXT} (thread)\n\n${PART_2}`;
      await expect.poll(() => page.getByLabel('Post', { exact: true }).inputValue()).toBe(joined);
      await expect
        .poll(
          async () =>
            (await drafts()).map((p: { platform: string; text: string; thread: string[] }) => [
              p.platform,
              p.text,
              p.thread,
            ]),
          {
            timeout: 15_000,
          },
        )
        .toEqual([['platformA', joined, []]]);
      await page.getByRole('button', { name: 'Publish now' }).click();
      // "Published" is already on the page (the first comment's help text): wait for the sandbox itself.
      await expect
        .poll(() => world.sandbox.platformA.state.listPosts().filter((p) => p.text === joined).length)
        .toBe(1);
    });

    it('kept in parts: switching back to platformB sends the thread again', async () => {
      await page.getByRole('button', { name: 'Write another' }).click();
      await useChannel('platformB');
      await page.getByLabel('Post', { exact: true }).fill(`${TEXT} (kept)`);
      await page.getByRole('button', { name: 'Add a part' }).click();
      await page.getByLabel('Part 2', { exact: true }).fill(PART_2);
      await page.getByText(/^Draft saved at/).waitFor();
      await useChannel('platformA');
      const offer = page.getByRole('group', { name: 'Thread' });
      await offer.getByRole('button', { name: 'Keep the parts' }).click();
      await offer.getByText(/kept here but not sent to platformA/).waitFor();
      await expect
        .poll(async () => (await drafts()).map((p: { platform: string }) => p.platform), { timeout: 15_000 })
        .toEqual(['platformA']);
      await useChannel('platformB');
      await expect
        .poll(
          async () =>
            (await drafts()).map((p: { platform: string; thread: string[] }) => [p.platform, p.thread]),
          {
            timeout: 15_000,
          },
        )
        .toEqual([['platformB', [PART_2]]]);
      expect(browserErrors).toEqual([]);
    });
  },
);

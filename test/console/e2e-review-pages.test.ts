import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { CHROMIUM, hasChromium, openSignedIn } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * The rest of issue 24's "What to build" that no browser test covered, in Debian's Chromium
 * against the real API and the sandbox's platformB: a scheduled thread's parts and first comment
 * edited (not only its text); History's delete and the personal model's state as it is fitted;
 * Settings' vault, limits and request budget.
 */
if (!hasChromium)
  console.warn(`console review pages test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

const tag = randomBytes(3).toString('hex');

describe.skipIf(!hasChromium)('issue 24: the pages’ remaining promises', { timeout: 90_000 }, () => {
  let world: BrowserWorld;
  let t: TestApp;
  let key: string;
  let browser: Browser;
  const errors: string[] = [];

  beforeAll(async () => {
    world = await startBrowserWorld();
    ({ t, key, browser } = world);
  }, 90_000);

  afterAll(async () => {
    await world?.close();
  });

  const open = (route: string, heading: string) =>
    openSignedIn(browser, { url: t.url, key, route, heading, errors });

  it('a scheduled thread’s parts and first comment are edited, not only its text', async () => {
    const created = await t.request('POST', '/v1/posts', {
      key,
      body: {
        text: `Scheduled thread ${tag}: what we learned.`,
        thread: [`Part two, first wording ${tag}.`],
        firstComment: `Comment, first wording ${tag}.`,
        channelId: world.channelId,
        runAt: Date.now() + 86_400_000,
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.post.id;
    const page = await open(`/posts?open=${id}`, 'Posts');
    await page.locator(`#post-${id}`).getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit scheduled post' }).waitFor();
    await expect
      .poll(() => page.getByLabel('Part 2', { exact: true }).inputValue())
      .toBe(`Part two, first wording ${tag}.`);
    expect(await page.getByLabel('First comment', { exact: true }).inputValue()).toBe(
      `Comment, first wording ${tag}.`,
    );
    await page.getByLabel('Part 2', { exact: true }).fill(`Part two, second wording ${tag}.`);
    await page.getByLabel('First comment', { exact: true }).fill(`Comment, second wording ${tag}.`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved; the post publishes at its time with them.').waitFor();
    const after = (await t.request('GET', `/v1/posts/${id}`, { key })).body.post;
    expect(after).toMatchObject({
      status: 'scheduled',
      text: `Scheduled thread ${tag}: what we learned.`,
      thread: [`Part two, second wording ${tag}.`],
      firstComment: `Comment, second wording ${tag}.`,
    });
    await page.context().close();
  });

  it('History deletes an entry, and says where the personal model stands as it is fitted', async () => {
    const items = Array.from({ length: 12 }, (_, i) => ({
      text: `History ${tag} entry ${i}: a post about deploys`,
      reactions: 10 + i * 3,
      publishedAt: Date.UTC(2026, 0, 5 + i, 9),
    }));
    expect((await t.request('POST', '/v1/history', { key, body: { items } })).status).toBe(201);
    const page = await open('/history', 'History');
    const model = page.getByRole('region', { name: 'Personal model' });
    await model.getByText(/^No personal model yet: it needs at least 10 posts with engagement/).waitFor();
    // The fit is a background sweep; run it now instead of waiting for its interval.
    await t.service.runner!.runOnce();
    await page.reload();
    await model
      .getByText(/^Your personal model learned from 12 posts with engagement; the history was last read/)
      .waitFor();

    page.on('dialog', (d) => void d.accept());
    const row = page.getByRole('row', { name: new RegExp(`History ${tag} entry 3:`) });
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    const left = (await t.request('GET', '/v1/history', { key })).body.history.map(
      (h: { text: string }) => h.text,
    );
    expect(left).toHaveLength(11);
    expect(left.some((text: string) => text.startsWith(`History ${tag} entry 3:`))).toBe(false);
    await model.getByText(/The history changed since, so it is being fitted again\./).waitFor();
    await page.context().close();
  });

  it('Settings names the vault, each platform’s limit and the request budget', async () => {
    const page = await open('/settings', 'Settings');
    await page
      .getByText('Configured: channel sign-ins are stored encrypted, and channels can publish.')
      .waitFor();
    const platformB = page.getByRole('row', { name: /^platformB / });
    expect(await platformB.textContent()).toMatch(/280 characters.*Ready: channels can connect and publish/);
    const budget = (await page.getByText(/ left in this window/).textContent())!;
    const [, remaining, limit] = /^(\d+) of (\d+) left/.exec(budget)!;
    const account = await t.request('GET', '/v1/account', { key });
    expect(Number(limit)).toBe(Number(account.headers.get('x-ratelimit-limit')));
    expect(Number(remaining)).toBeLessThanOrEqual(Number(limit));
    await page.context().close();
    expect(errors).toEqual([]);
  });
});

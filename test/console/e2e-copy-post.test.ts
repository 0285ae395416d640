import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { CHROMIUM, chartPng, hasChromium, openSignedIn, screenshot } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * "Write a copy" of a canceled post, in Debian's Chromium against the real API and the sandbox's
 * platformB: the copy opens Compose with the whole post (5 thread parts, the first comment, the
 * channel, the image), saving it creates a NEW post with the same parts, and the original stays
 * exactly as it was. The post is made and canceled through the API; only the copy is the browser's.
 */
if (!hasChromium) {
  console.warn(`console copy test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
}

const tag = randomBytes(3).toString('hex');
const TEXT = `Copy ${tag}: five things we learned moving our queue onto PostgreSQL.`;
const THREAD = [2, 3, 4, 5].map(
  (n) => `Copy ${tag}, part ${n}: lesson ${n - 1}, with the numbers behind it.`,
);
const COMMENT = `Copy ${tag}: the full write-up, https://example.com/queue-${tag}`;

describe.skipIf(!hasChromium)(
  'write a copy of a canceled post in a real browser',
  { timeout: 60_000 },
  () => {
    let world: BrowserWorld;
    let t: TestApp;
    let browser: Browser;
    let page: Page;
    let key: string;
    let channelId: string;
    let mediaId: string;
    let original: Record<string, unknown>;
    const browserErrors: string[] = [];

    beforeAll(async () => {
      world = await startBrowserWorld();
      ({ t, key, channelId, browser } = world);

      const upload = await t.request('POST', '/v1/media', {
        key,
        raw: chartPng(),
        headers: { 'content-type': 'image/png', 'x-filename': 'queue-chart.png' },
      });
      expect(upload.status, upload.text).toBe(201);
      mediaId = upload.body.media.id;

      // A scheduled 5-part thread with a first comment and an image, then canceled.
      const created = await t.request('POST', '/v1/posts', {
        key,
        body: {
          text: TEXT,
          channelId,
          thread: THREAD,
          firstComment: COMMENT,
          mediaIds: [mediaId],
          runAt: Date.now() + 86_400_000,
        },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body.post.status).toBe('scheduled');
      const canceled = await t.request('POST', `/v1/posts/${created.body.post.id}/cancel`, { key });
      expect(canceled.status, canceled.text).toBe(200);
      original = (await t.request('GET', `/v1/posts/${created.body.post.id}`, { key })).body.post;
      expect(original).toMatchObject({ status: 'canceled', thread: THREAD, firstComment: COMMENT });
      page = await openSignedIn(browser, {
        url: t.url,
        key,
        route: '/posts?status=canceled',
        heading: 'Posts',
        errors: browserErrors,
      });
    }, 120_000);

    afterAll(async () => {
      await world?.close();
    });

    it('opens Compose with every part, the first comment, the channel and the image of the original', async () => {
      await page.locator('.post-row', { hasText: TEXT }).getByRole('link', { name: 'Write a copy' }).click();
      await page.getByRole('heading', { name: 'Write a copy' }).waitFor();
      expect(new URL(page.url()).hash).toBe(`#/compose?copy=${original.id}`);
      await page.getByText('A copy of a canceled post: saving creates a new post').waitFor();
      const post = page.getByLabel('Post', { exact: true });
      await expect.poll(() => post.inputValue()).toBe(TEXT);
      for (const [i, part] of THREAD.entries())
        expect(await page.getByLabel(`Part ${i + 2}`, { exact: true }).inputValue()).toBe(part);
      expect(await page.getByLabel(`Part ${THREAD.length + 2}`, { exact: true }).count()).toBe(0);
      expect(await page.getByRole('textbox', { name: 'First comment' }).inputValue()).toBe(COMMENT);
      expect(await page.getByRole('combobox', { name: /^Channel/ }).inputValue()).toBe(channelId);
      await page.getByText('Media (1 attached)').waitFor();
      // The preview is the whole chain: five parts, then the comment as a reply to the last.
      const preview = page.getByRole('region', { name: 'Preview on platformB' });
      await expect.poll(() => preview.locator('article').count()).toBe(THREAD.length + 2);
      await screenshot(page, '30-compose-copy');
    });

    it('saves the copy as a new post with the same parts and leaves the original unchanged', async () => {
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.getByText('Saved as a draft.').waitFor();
      const posts = (await t.request('GET', '/v1/posts', { key })).body.posts as Array<
        Record<string, unknown>
      >;
      expect(posts).toHaveLength(2);
      const copy = posts.find((p) => p.id !== original.id)!;
      expect(copy).toMatchObject({
        status: 'draft',
        platform: 'platformB',
        channelId,
        text: TEXT,
        thread: THREAD,
        firstComment: COMMENT,
        mediaIds: [mediaId],
      });
      const after = await t.request('GET', `/v1/posts/${original.id}`, { key });
      expect(after.body.post).toEqual(original);
      expect(browserErrors).toEqual([]);
    });

    it('edits the copy, now a draft, in place through the same loading path (?post=)', async () => {
      await page.goto(`${t.url}/#/posts?status=draft`);
      await page.locator('.post-row', { hasText: TEXT }).getByRole('link', { name: 'Edit' }).click();
      await page.getByRole('heading', { name: 'Edit draft' }).waitFor();
      const part3 = page.getByLabel('Part 3', { exact: true });
      await expect.poll(() => part3.inputValue()).toBe(THREAD[1]);
      expect(await page.getByRole('textbox', { name: 'First comment' }).inputValue()).toBe(COMMENT);
      await part3.fill(`${THREAD[1]} Edited.`);
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.getByText('Saved as a draft.').waitFor();
      const posts = (await t.request('GET', '/v1/posts', { key })).body.posts as Array<
        Record<string, unknown>
      >;
      expect(posts).toHaveLength(2);
      const draft = posts.find((p) => p.id !== original.id)!;
      expect(draft.thread).toEqual([THREAD[0], `${THREAD[1]} Edited.`, THREAD[2], THREAD[3]]);
      expect((await t.request('GET', `/v1/posts/${original.id}`, { key })).body.post).toEqual(original);
    });

    it('still prefills the text alone from ?text= links', async () => {
      await page.goto(`${t.url}/#/compose?text=${encodeURIComponent(`Copy ${tag}: just the text.`)}`);
      // (A hash change alone keeps the Compose already open, as a link from another page would not.)
      await page.reload();
      await page.getByRole('heading', { name: 'Compose' }).waitFor();
      expect(await page.getByLabel('Post', { exact: true }).inputValue()).toBe(`Copy ${tag}: just the text.`);
      expect(await page.getByLabel('Part 2', { exact: true }).count()).toBe(0);
    });
  },
);

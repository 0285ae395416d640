import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { CHROMIUM, hasChromium, screenshot } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * Plan's "Turn into a draft", in Debian's Chromium against the real API on the offline engine: a
 * plan item is an outline, so the draft is written from it by POST /v1/generate (the item's
 * archetype and format, count 1) and is a post, not the outline's hook and angle pasted together.
 * A failed generate shows in words and saves nothing.
 */
if (!hasChromium) {
  console.warn(`console plan-draft test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
}

const BRIEF =
  'We moved from seat pricing to usage-based billing this year and churn fell 12%. Lessons on pricing pages, invoices and customer trust.';

interface PlanItem {
  slot: number;
  pillar: string;
  hook: string;
  angle: string;
  format: string;
  archetype: string;
}

describe.skipIf(!hasChromium)('turn a plan item into a draft in a real browser', { timeout: 60_000 }, () => {
  let world: BrowserWorld;
  let t: TestApp;
  let page: Page;
  let key: string;
  let items: PlanItem[];
  const generateBodies: Array<Record<string, unknown>> = [];
  let browserErrors: string[];

  beforeAll(async () => {
    world = await startBrowserWorld({}, { connect: [] });
    ({ t, key, errors: browserErrors } = world);
    page = await world.open('/plan', 'Plan');
    page.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/v1/generate')
        generateBodies.push(req.postDataJSON());
    });
    await page.getByLabel('Brief').fill(BRIEF);
    const planned = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/plan');
    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    items = (await (await planned).json()).items;
    expect(items.length).toBe(5);
    await page.getByRole('button', { name: 'Turn into a draft' }).first().waitFor();
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  it('shows a failed generate through the error box and saves no draft', async () => {
    await page.route('**/v1/generate', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'internal', message: 'Engine down.', requestId: 'req_plan' } }),
      }),
    );
    await page.getByRole('button', { name: 'Turn into a draft' }).first().click();
    await page.getByRole('alert').filter({ hasText: 'Engine down.' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/plan');
    expect((await t.request('GET', '/v1/posts', { key })).body.posts).toEqual([]);
    await page.unroute('**/v1/generate');
    generateBodies.length = 0;
  });

  it('writes the post from the outline with /v1/generate and opens it in Compose', async () => {
    const item = items[0]!;
    // Held a moment, so the progress line can be seen.
    await page.route('**/v1/generate', async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Turn into a draft' }).first().click();
    await page.getByRole('status').filter({ hasText: 'Writing the post from this outline' }).waitFor();
    await page.getByRole('heading', { name: 'Edit draft' }).waitFor();
    const post = page.getByLabel('Post', { exact: true });
    await expect.poll(() => post.inputValue()).not.toBe('');
    const text = await post.inputValue();

    // One generate call, shaped by the item.
    expect(generateBodies).toHaveLength(1);
    expect(generateBodies[0]).toMatchObject({
      archetype: item.archetype,
      media: item.format,
      platform: 'platformA',
      count: 1,
    });
    expect(String(generateBodies[0]!.brief)).toContain(item.hook);

    // A finished post about the item's theme, not the outline's instructions.
    expect(text).not.toContain(item.angle);
    expect(text).not.toBe(`${item.hook}\n\n${item.angle}`);
    expect(text.toLowerCase()).toContain(item.pillar.toLowerCase());
    expect(text).toContain('12%');

    const posts = (await t.request('GET', '/v1/posts', { key })).body.posts;
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ status: 'draft', platform: 'platformA', text });
    expect(new URL(page.url()).hash).toBe(`#/compose?post=${posts[0].id}`);
    await screenshot(page, '40-plan-draft');
    expect(browserErrors).toEqual([]);
  });
});

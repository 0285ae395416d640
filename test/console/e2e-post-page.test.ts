import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../../src/features/webhooks/delivery.sweep.ts';
import { type Receiver, startReceiver } from '../webhooks/receiver.ts';
import { CHROMIUM, hasChromium } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * Issue 33 item 5, in Debian's Chromium against the real API and the sandbox's platformB: a
 * published post's page (reached from Posts) draws its metrics history from
 * /v1/posts/{id}/metrics/history, reads a new snapshot on demand, links to the post on the
 * platform, and lists its recorded scores and the webhook deliveries its events caused.
 */
if (!hasChromium)
  console.warn(`post page test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

const tag = randomBytes(3).toString('hex');

describe.skipIf(!hasChromium)('a post’s page', { timeout: 120_000 }, () => {
  let world: BrowserWorld;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver(() => 200);
    world = await startBrowserWorld({ WEBHOOK_ALLOW_LOOPBACK: 'true' });
  }, 90_000);
  afterAll(async () => {
    await world?.close();
    await receiver?.close();
  });

  it('draws the metrics history of a published post, with its link, scores and deliveries', async () => {
    const { t, key } = world;
    const hook = await t.request('POST', '/v1/webhooks', {
      key,
      body: { url: `http://127.0.0.1:${receiver.port}/post-page` },
    });
    expect(hook.status, hook.text).toBe(201);
    const text = `Our release notes ${tag}: three fixes and one new export.`;
    const created = await t.request('POST', '/v1/posts', { key, body: { text, channelId: world.channelId } });
    expect(created.status, created.text).toBe(201);
    const id: string = created.body.post.id;
    const published = await t.request('POST', `/v1/posts/${id}/publish`, { key });
    expect(published.status, published.text).toBe(200);
    const { platformPostId, platformUrl } = published.body.post;
    expect(platformUrl).toEqual(expect.any(String));
    expect((await t.request('POST', `/v1/posts/${id}/score`, { key })).status).toBe(200);
    // Two readings of the platform's counters, as the metrics sweep takes them.
    for (const [likes, impressions] of [
      [3, 120],
      [9, 410],
    ] as const) {
      world.sandbox.platformB.state.setMetrics(platformPostId, {
        like_count: likes,
        impression_count: impressions,
      });
      const refreshed = await t.request('POST', `/v1/posts/${id}/metrics/refresh`, { key });
      expect(refreshed.status, refreshed.text).toBe(200);
    }
    await expect
      .poll(async () => {
        await deliverDue(t.service.deps);
        return receiver.received.length;
      })
      .toBeGreaterThanOrEqual(2);

    const page = await world.open('/posts', 'Posts');
    await page.locator(`#post-${id}`).getByRole('link', { name: 'Open its page' }).click();
    await page.getByRole('heading', { name: /^Post: Our release notes/ }).waitFor();

    const chart = page.getByRole('img', { name: /^Metrics of this post at 2 readings/ });
    await chart.waitFor();
    // One line per reported counter, each through both readings.
    await expect.poll(() => chart.locator('.recharts-line-curve').count()).toBeGreaterThanOrEqual(2);
    await expect
      .poll(() => chart.locator('.recharts-line-dot, .recharts-dot').count())
      .toBeGreaterThanOrEqual(4);
    expect(await chart.locator('.recharts-legend-item-text').allInnerTexts()).toEqual(
      expect.arrayContaining(['Likes', 'Impressions (right axis)']),
    );

    // A reading taken from the page adds a point.
    world.sandbox.platformB.state.setMetrics(platformPostId, { like_count: 15, impression_count: 700 });
    await page.getByRole('button', { name: 'Read the metrics now' }).click();
    await page.getByRole('img', { name: /^Metrics of this post at 3 readings/ }).waitFor();

    expect(await page.getByRole('link', { name: 'Open the post on platformB' }).getAttribute('href')).toBe(
      platformUrl,
    );
    const scores = page.getByRole('region', { name: 'Scores over time' });
    await expect.poll(() => scores.locator('tbody tr').count()).toBe(1);
    const deliveries = page.getByRole('region', { name: 'Webhook deliveries' });
    await expect.poll(() => deliveries.locator('tbody tr').count()).toBe(2);
    expect(await deliveries.locator('tbody').textContent()).toMatch(
      /post\.scored[\s\S]*Delivered[\s\S]*HTTP 200/,
    );

    const shown = await page.locator('main').textContent();
    expect(shown).not.toMatch(/pst_|whk_|dlv_|evt_|\b\d{13}\b/);
    expect(world.errors).toEqual([]);

    // The Calendar and Queue link to the same page.
    await page.goto(`${t.url}/#/calendar`);
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    await page
      .locator('.fc-event', { hasText: `Our release notes ${tag}` })
      .first()
      .click();
    await page.getByRole('heading', { name: /^Post: Our release notes/ }).waitFor();
    await page.context().close();
  });
});

import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricSnapshots, posts } from '../../src/db/schema/index.ts';
import { newId } from '../../src/lib/ids.ts';
import type { TestApp } from '../helpers/app.ts';
import { CHROMIUM, hasChromium, unlabelledControls } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * The Bulk upload page and the decay chart in Debian's Chromium against the real API and the
 * platformA sandbox: a pasted CSV checked (dry run: the bad row named with its problem, nothing
 * scheduled, Schedule disabled), fixed, checked again and scheduled; then Analytics reading a
 * post's decay from its snapshots.
 */
if (!hasChromium) console.warn(`console bulk tests skipped: ${CHROMIUM} is missing`);

const tag = randomBytes(3).toString('hex');
const HOUR = 3_600_000;

describe.skipIf(!hasChromium)('bulk upload and decay in a real browser', { timeout: 60_000 }, () => {
  let world: BrowserWorld;
  let t: TestApp;
  let page: Page;
  let key: string;
  let accountId: string;
  let browserErrors: string[];
  const open = (name: string) =>
    page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name, exact: true }).click();
  const postCount = async () => (await t.request('GET', '/v1/posts', { key })).body.posts.length;

  beforeAll(async () => {
    world = await startBrowserWorld({ PLATFORMA_BACKOFF_SCALE: '0.001' }, { platforms: ['platformA'] });
    ({ t, key, accountId, errors: browserErrors } = world);
    page = await world.open('/channels', 'Channels');
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  /** The channel as the page names it ("Sandy Sandbox (platformA)"): what a person writes in the file. */
  const channelLabel = async () => {
    const { channel } = (await t.request('GET', `/v1/channels/${world.channels.platformA}`, { key })).body;
    return `${channel.handle ?? channel.platformUserId} (${channel.platform})`;
  };

  it('checks a pasted CSV, names the bad row, then schedules the fixed file', async () => {
    const name = await channelLabel();
    const at = (h: number) => new Date(Date.now() + h * HOUR).toISOString();
    const rows = [
      `"Run ${tag}: the first post, with a comma",${at(2)},${name}`,
      `"=Run ${tag}: formula-looking text stays text",${at(3)},${name}`,
      `Run ${tag}: too early,2020-01-01T09:00:00Z,${name}`,
    ];
    await open('Bulk upload');
    await page.getByRole('heading', { name: 'Bulk upload', level: 1 }).waitFor();
    expect(await unlabelledControls(page)).toEqual([]);
    // The page names the channel to write; no id anywhere on it.
    await page
      .getByRole('region', { name: 'Channels' })
      .getByRole('listitem')
      .filter({ hasText: name })
      .waitFor();
    expect(await page.locator('body').textContent()).not.toContain(world.channels.platformA);
    expect(await page.getByLabel('Or paste the CSV').getAttribute('placeholder')).toContain(`,${name},`);
    await page.getByLabel('Or paste the CSV').fill(`text,runAt,channel\n${rows.join('\n')}\n`);
    await page.getByRole('button', { name: 'Check the file' }).click();
    const results = page.getByRole('region', { name: 'Check results' });
    await results
      .getByText('1 of 3 rows needs fixing before the file can be scheduled; nothing was scheduled.')
      .waitFor();
    const bad = results.locator('tr.bad-row');
    expect(await bad.count()).toBe(1);
    expect(await bad.locator('td').first().textContent()).toBe('4');
    expect(await bad.textContent()).toContain('runAt: Must be in the future');
    expect(await page.getByRole('button', { name: 'Schedule', exact: true }).isDisabled()).toBe(true);
    expect(await postCount()).toBe(0);

    await page.getByLabel('Or paste the CSV').fill(`text,runAt,channel\n${rows.slice(0, 2).join('\n')}\n`);
    await page.getByRole('button', { name: 'Check the file' }).click();
    await results.getByText('All 2 rows are valid: nothing was scheduled yet.').waitFor();
    await page.getByRole('button', { name: 'Schedule 2 posts' }).click();
    await page.getByText('Scheduled 2 posts.').waitFor();
    const made = (await t.request('GET', '/v1/posts', { key })).body.posts.map(
      (p: { text: string }) => p.text,
    );
    expect(made.sort()).toEqual([
      `=Run ${tag}: formula-looking text stays text`,
      `Run ${tag}: the first post, with a comma`,
    ]);
  });

  it('a name no channel has is the row’s problem; rows without a channel take the one picked', async () => {
    const name = await channelLabel();
    const before = await postCount();
    const at = new Date(Date.now() + 4 * HOUR).toISOString();
    const csv = page.getByLabel('Or paste the CSV');
    await csv.fill(`text,runAt,channel\nRun ${tag}: to nobody,${at},@nobody\n`);
    await page.getByRole('button', { name: 'Check the file' }).click();
    const bad = page.getByRole('region', { name: 'Check results' }).locator('tr.bad-row');
    expect(await bad.locator('td').nth(3).textContent()).toBe(
      `channel: No channel of yours is called "@nobody"; write one of your channels: "${name}"`,
    );

    await csv.fill(`text,runAt\nRun ${tag}: to the picked channel,${at}\n`);
    await page.getByLabel('Rows without a channel go to').selectOption({ label: name });
    await page.getByRole('button', { name: 'Check the file' }).click();
    await page.getByText('The row is valid: nothing was scheduled yet.').waitFor();
    await page.getByRole('button', { name: 'Schedule 1 post' }).click();
    await page.getByText('Scheduled 1 post.').waitFor();
    const listed: { text: string; channelId: string }[] = (await t.request('GET', '/v1/posts', { key })).body
      .posts;
    expect(listed).toHaveLength(before + 1);
    expect(listed.find((p) => p.text === `Run ${tag}: to the picked channel`)?.channelId).toBe(
      world.channels.platformA,
    );
  });

  it('shows content decay read from a published post’s snapshots', async () => {
    const channelId = world.channels.platformA!;
    const draft = await t.request('POST', '/v1/posts', {
      key,
      body: { text: `Run ${tag}: decay`, channelId },
    });
    const published = await t.request('POST', `/v1/posts/${draft.body.post.id}/publish`, { key });
    expect(published.status, published.text).toBe(200);
    const db = t.service.deps.db;
    const publishedAt = Date.now() - 3 * 24 * HOUR;
    await db.update(posts).set({ publishedAt }).where(eq(posts.id, draft.body.post.id));
    for (const [age, likes] of [
      [30 * 60_000, 20],
      [24 * HOUR, 60],
      [2 * 24 * HOUR, 80],
    ] as const) {
      await db.insert(metricSnapshots).values({
        id: newId('metric'),
        postId: draft.body.post.id,
        accountId,
        impressions: null,
        likes,
        comments: 0,
        shares: 0,
        clicks: 0,
        fetchedAt: publishedAt + age,
      });
    }
    await open('Analytics');
    await page.getByRole('heading', { name: 'Content decay' }).waitFor();
    await page
      .getByText(
        'A typical post has 75% of its engagement 24 hours after publishing (median over 1 post measured that long).',
      )
      .waitFor();
    await page
      .getByRole('img', { name: 'Share of engagement reached after 1 hour, 24 hours and 7 days' })
      .waitFor();
    await page.getByRole('img', { name: 'Posts per week and engagements per post' }).waitFor();
    expect(browserErrors).toEqual([]);
  });
});

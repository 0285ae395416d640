import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { CHROMIUM, hasChromium, screenshot } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * One post to several channels, and threads as you type, in Debian's Chromium against the real
 * API and both sandbox platforms: a long platformA post also sent to platformB gets a tab whose
 * text starts as a thread split from it, each tab with its own first comment; the autosave keeps
 * one group of drafts (the single draft before it deleted); Publish now lands the post on both
 * sandbox platforms (read over HTTP) with one groupId. Add to queue shows each channel's next free
 * slot and schedules each post there. On platformB, Split at paragraphs and Ctrl+Enter make parts.
 */
if (!hasChromium) {
  console.warn(`console post-group test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
}

const tag = randomBytes(3).toString('hex');
const P1 = `Group ${tag}: we cut our nightly build from 41 minutes to 6 by caching dependencies per lockfile and splitting the slowest suite into four shards that run side by side on the same runner.`;
const P2 = `The cache alone saved 22 minutes. Restores take 40 seconds now, where a clean install took nine minutes, and the cache key changes only when the lockfile does, so most nights it hits.`;
const P3 = `The shards saved the rest. If your build is slow, time each step before you buy bigger machines for it.`;
const LONG = [P1, P2, P3].join('\n\n');

interface ApiPost {
  id: string;
  text: string;
  platform: string;
  status: string;
  groupId: string | null;
  thread: string[];
  firstComment: string | null;
  scheduledFor: number | null;
}

describe.skipIf(!hasChromium)('one post to several channels in a real browser', { timeout: 120_000 }, () => {
  let world: BrowserWorld;
  let t: TestApp;
  let page: Page;
  let key: string;
  const posts = async (prefix: string): Promise<ApiPost[]> =>
    (await t.request('GET', '/v1/posts?limit=100', { key })).body.posts.filter((p: ApiPost) =>
      p.text.startsWith(prefix),
    );
  const useChannel = async (platform: string) => {
    const select = page.getByRole('combobox', { name: /^Channel/ });
    const value = await select.locator('option', { hasText: `(${platform})` }).getAttribute('value');
    await select.selectOption(value!);
  };
  const sandboxState = async (platform: string) =>
    JSON.stringify(await (await fetch(`${world.sandbox.url}/_sandbox/${platform}/state`)).json());

  beforeAll(async () => {
    world = await startBrowserWorld(
      { PLATFORMA_BACKOFF_SCALE: '0.001', PLATFORMB_BACKOFF_SCALE: '0.001' },
      { alsoPlatformA: true },
    );
    ({ t, key } = world);
    page = await world.open('/compose', 'Compose');
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  it('a platformA post also sent to platformB: a tab each, one group, published on both', async () => {
    await useChannel('platformA');
    await page.getByLabel('Post', { exact: true }).fill(LONG);
    await page.getByText(/^Draft saved at/).waitFor();
    await expect
      .poll(async () => (await posts(`Group ${tag}`)).map((p) => [p.platform, p.groupId]))
      .toEqual([['platformA', null]]);

    await page
      .getByRole('group', { name: 'Also post to' })
      .getByRole('checkbox', { name: /\(platformB\)/ })
      .check();
    const tabs = page.getByRole('tablist', { name: 'Channels of this post' });
    await tabs.getByRole('tab', { name: /\(platformA\)/, selected: true }).waitFor();
    await page.locator('#first-comment').fill(`Group ${tag}: the config on A is linked here.`);

    await tabs.getByRole('tab', { name: /\(platformB\)/ }).click();
    // platformB's tab starts as a thread split from the long post: whole paragraphs, each fitting.
    await expect.poll(() => page.getByLabel('Post', { exact: true }).inputValue()).toBe(P1);
    expect(await page.getByLabel('Part 2', { exact: true }).inputValue()).toBe(P2);
    expect(await page.getByLabel('Part 3', { exact: true }).inputValue()).toBe(P3);
    expect(await page.locator('.counter.over').count()).toBe(0);
    await page.locator('#first-comment').fill(`Group ${tag}: the config on B.`);
    await screenshot(page, 'compose-group');
    // On a phone the tabs wrap inside the page: no sideways scroll.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(
      await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(390);
    await screenshot(page, 'compose-group-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
    // The platformA tab kept its own first comment.
    await tabs.getByRole('tab', { name: /\(platformA\)/ }).click();
    await expect
      .poll(() => page.locator('#first-comment').inputValue())
      .toBe(`Group ${tag}: the config on A is linked here.`);

    // The autosave holds one group of two drafts; the single platformA draft before it is gone.
    await expect
      .poll(
        async () => {
          const all = await posts(`Group ${tag}`);
          return {
            platforms: all.map((p) => p.platform).sort(),
            groups: new Set(all.map((p) => p.groupId)).size,
            grouped: all.every((p) => p.groupId),
          };
        },
        { timeout: 15_000 },
      )
      .toEqual({ platforms: ['platformA', 'platformB'], groups: 1, grouped: true });

    // A reload restores both tabs, and the autosave goes on writing to the same group.
    const before = (await posts(`Group ${tag}`)).map((p) => p.id).sort();
    await page.getByText(/^Drafts saved at .+, one for each of the 2 channels\./).waitFor();
    await page.reload();
    await page.getByText('Restored the post you were writing').waitFor();
    await tabs.getByRole('tab', { name: /\(platformB\)/ }).click();
    await expect.poll(() => page.getByLabel('Post', { exact: true }).inputValue()).toBe(P1);
    await page.locator('#first-comment').fill(`Group ${tag}: the config on B, again.`);
    await expect
      .poll(async () => (await posts(`Group ${tag}`)).map((p) => p.firstComment).sort(), { timeout: 15_000 })
      .toEqual([`Group ${tag}: the config on A is linked here.`, `Group ${tag}: the config on B, again.`]);
    expect((await posts(`Group ${tag}`)).map((p) => p.id).sort()).toEqual(before);

    // A draft of the group deleted elsewhere (the Posts page, the API): the next save makes a new
    // group for both tabs and deletes what was left of the old one, rather than failing for good.
    const gone = await t.request('DELETE', `/v1/posts/${before[0]}`, { key });
    expect(gone.status, gone.text).toBeLessThan(300);
    await page.locator('#first-comment').fill(`Group ${tag}: the config on B.`);
    await expect
      .poll(
        async () => {
          const all = await posts(`Group ${tag}`);
          return {
            n: all.length,
            old: all.filter((p) => before.includes(p.id)).length,
            groups: new Set(all.map((p) => p.groupId)).size,
          };
        },
        { timeout: 20_000 },
      )
      .toEqual({ n: 2, old: 0, groups: 1 });
    await page.locator('#first-comment').fill(`Group ${tag}: the config on B, again.`);
    await page.getByText(/^Drafts saved at .+, one for each of the 2 channels\./).waitFor();

    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByText('Published on 2 channels.').waitFor();
    const out = await posts(`Group ${tag}`);
    expect(out.map((p) => p.status)).toEqual(['published', 'published']);
    const groupId = out[0]!.groupId!;
    expect(out.map((p) => p.groupId)).toEqual([groupId, groupId]);
    const group = (await t.request('GET', `/v1/post-groups/${groupId}`, { key })).body;
    expect(group.posts.map((p: ApiPost) => [p.platform, p.thread.length, p.firstComment])).toEqual([
      ['platformA', 0, `Group ${tag}: the config on A is linked here.`],
      ['platformB', 2, `Group ${tag}: the config on B, again.`],
    ]);
    // On the sandbox, over HTTP: the whole post on platformA, the thread and its comment on platformB.
    const onA = await sandboxState('platformA');
    expect(onA).toContain(JSON.stringify(LONG).slice(1, -1));
    expect(onA).toContain(`Group ${tag}: the config on A is linked here.`);
    const onB = JSON.parse(await sandboxState('platformB')).posts.filter((x: { text: string }) =>
      [P1, P2, P3, `Group ${tag}: the config on B, again.`].includes(x.text),
    );
    expect(onB).toHaveLength(4);
    expect(world.errors).toEqual([]);
  });

  it('Add to queue shows the next free slot of each channel, then schedules each post there', async () => {
    const upcoming: Record<string, number> = {};
    for (const [platform, id] of Object.entries(world.channels)) {
      const put = await t.request('PUT', `/v1/channels/${id}/queue`, {
        key,
        body: {
          timezone: 'Europe/London',
          slots: [{ day: 3, time: platform === 'platformA' ? '08:00' : '12:30' }],
        },
      });
      expect(put.status, put.text).toBe(200);
      upcoming[platform] = (
        await t.request('GET', `/v1/channels/${id}/queue?count=1`, { key })
      ).body.upcoming[0].at;
    }
    await page.getByRole('button', { name: 'Write another' }).click();
    // The slots were set through the API behind this page's back: load it again to read them.
    await page.reload();
    await page.getByRole('heading', { name: 'Compose', exact: true }).waitFor();
    await useChannel('platformA');
    const text = `Queued ${tag}: one post, two channels, each at its own next free slot.`;
    await page.getByLabel('Post', { exact: true }).fill(text);
    const also = page
      .getByRole('group', { name: 'Also post to' })
      .getByRole('checkbox', { name: /\(platformB\)/ });
    await also.check();
    // Taken out and put back: the tab goes and comes back.
    const tabs = page.getByRole('tablist', { name: 'Channels of this post' });
    await tabs.waitFor();
    await page.getByRole('button', { name: /^Remove .+ \(platformA\) from this post$/ }).click();
    await tabs.waitFor({ state: 'detached' });
    await expect
      .poll(() =>
        page
          .getByRole('combobox', { name: /^Channel/ })
          .locator('option:checked')
          .textContent(),
      )
      .toMatch(/\(platformB\)/);
    await page
      .getByRole('group', { name: 'Also post to' })
      .getByRole('checkbox', { name: /\(platformA\)/ })
      .check();
    await tabs.waitFor();

    const lines = page.locator('#queue-line .queue-line');
    await expect.poll(() => lines.count()).toBe(2);
    const said = (await lines.allTextContents()).join(' | ');
    expect(said).toMatch(/next free slot of .+ \(platformA\): /);
    expect(said).toMatch(/next free slot of .+ \(platformB\): /);
    // The group's drafts autosaved first: Add to queue then queues each draft at its channel's slot.
    await expect
      .poll(async () => (await posts(`Queued ${tag}`)).map((p) => p.status), { timeout: 15_000 })
      .toEqual(['draft', 'draft']);
    await page.getByText(/^Drafts saved at .+, one for each of the 2 channels\./).waitFor();
    await page.getByRole('button', { name: 'Add to queue' }).click();
    await page.getByText('Scheduled on 2 channels.').waitFor();
    expect(await page.getByText(/Added to its queue: scheduled for .+, its next free slot\./).count()).toBe(
      2,
    );
    const queued = await posts(`Queued ${tag}`);
    expect(Object.fromEntries(queued.map((p) => [p.platform, [p.status, p.scheduledFor]]))).toEqual({
      platformA: ['scheduled', upcoming.platformA],
      platformB: ['scheduled', upcoming.platformB],
    });
    expect(new Set(queued.map((p) => p.groupId)).size).toBe(1);
    expect(queued[0]!.groupId).not.toBeNull();
    expect(await page.locator('main').textContent()).not.toMatch(/pst_|chn_|pgr_/);
    expect(world.errors).toEqual([]);
  });

  it('threads as you type on platformB: Split at paragraphs, a count per part, Ctrl+Enter at the cursor', async () => {
    await page.getByRole('button', { name: 'Write another' }).click();
    await useChannel('platformB');
    const post = page.getByLabel('Post', { exact: true });
    const first = `Split ${tag}: three things we learned shipping a build cache.`;
    const second = `Keys matter most. A key that changes on every commit is a cache that never hits. Key it on the lockfile instead.`;
    const third = `Measure restores, not saves. ${'A slow restore costs every build, so time it first. '.repeat(5).trim()}`;
    await post.fill([first, second, third].join('\n\n'));
    const offer = page.locator('.split-offer').first();
    await offer
      .getByText(
        /^Too long for one part\. Split at paragraphs would make \d+ parts: [\d, and]+ of 280 characters\./,
      )
      .waitFor();
    await offer.getByRole('button', { name: 'Split at paragraphs' }).click();
    await expect.poll(() => post.inputValue()).toBe(first);
    expect(await page.getByLabel('Part 2', { exact: true }).inputValue()).toBe(second);
    const partCount = await page.locator('ol.thread-parts > li').count();
    expect(partCount).toBeGreaterThanOrEqual(2);
    expect(await page.locator('.counter.over').count()).toBe(0);
    // Every part shows its own count.
    expect(await page.locator('ol.thread-parts .counter').count()).toBe(partCount);

    // Ctrl+Enter in part 2, after its first sentence: the rest becomes part 3.
    const part2 = page.getByLabel('Part 2', { exact: true });
    await part2.focus();
    await part2.evaluate((el: any) => {
      const at = el.value.indexOf(' A key');
      el.setSelectionRange(at, at);
    });
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => part2.inputValue()).toBe('Keys matter most.');
    expect(await page.getByLabel('Part 3', { exact: true }).inputValue()).toBe(
      'A key that changes on every commit is a cache that never hits. Key it on the lockfile instead.',
    );
    await expect
      .poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.id))
      .toBe('thread-1');

    await screenshot(page, 'compose-split');
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByText(/^Published: all \d+ parts\./).waitFor();
    const [published] = await posts(`Split ${tag}`);
    expect(published!.thread.slice(0, 2)).toEqual([
      'Keys matter most.',
      'A key that changes on every commit is a cache that never hits. Key it on the lockfile instead.',
    ]);
    const onB = JSON.parse(await sandboxState('platformB')).posts as {
      text: string;
      replyTo: string | null;
      id: string;
    }[];
    const root = onB.find((x) => x.text === first)!;
    const reply = onB.find((x) => x.text === 'Keys matter most.')!;
    expect(reply.replyTo).toBe(root.id);
    expect(world.errors).toEqual([]);
  });
});

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { CHROMIUM, hasChromium, openSignedIn, screenshot, unlabelledControls } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * Insights' best posting times in Debian's Chromium: a heat map of weekday by 3-hour window on
 * the author's clock (a browser in Europe/Paris), each cell naming the posts behind it, readable
 * at 1366 px and 390 px, and pressing a cell opens Compose scheduled for that weekday and hour's
 * next occurrence in the author's zone.
 */
if (!hasChromium)
  console.warn(`console insights test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Monday 6 January 2025, 09:00 UTC. */
const MONDAY_9AM = Date.UTC(2025, 0, 6, 9);

/** Eight Tuesdays at 09:30 in Paris (08:30 UTC in winter) earning ten times 52 afternoon posts. */
function history() {
  const tuesdays = Array.from({ length: 8 }, (_, w) => ({
    text: `Tuesday morning ${w}`,
    publishedAt: MONDAY_9AM + (w * 7 + 1) * DAY - 30 * 60_000,
    reactions: 180 + w * 5,
  }));
  const rest = Array.from({ length: 52 }, (_, i) => ({
    text: `Afternoon ${i}`,
    publishedAt: MONDAY_9AM + i * DAY + (4 + ((i * 5) % 8)) * HOUR,
    reactions: 14 + (i % 12),
  }));
  return [...tuesdays, ...rest];
}

describe.skipIf(!hasChromium)('Insights: best times as a heat map', { timeout: 90_000 }, () => {
  let world: BrowserWorld;
  let t: TestApp;
  let key: string;
  let browser: Browser;
  const errors: string[] = [];

  beforeAll(async () => {
    world = await startBrowserWorld();
    ({ t, key, browser } = world);
    const imported = await t.request('POST', '/v1/history', { key, body: { items: history() } });
    expect(imported.status, imported.text).toBe(201);
    // Insights read in the account's time zone (Settings): the author's, Paris.
    const zone = await t.request('PATCH', '/v1/account/settings', {
      key,
      body: { timezone: 'Europe/Paris' },
    });
    expect(zone.status, zone.text).toBe(200);
  }, 90_000);

  afterAll(async () => {
    await world?.close();
  });

  const open = async (apiKey: string, width: number) => {
    const page = await openSignedIn(browser, {
      url: t.url,
      key: apiKey,
      route: '/insights',
      heading: 'Insights',
      errors,
      timezoneId: 'Europe/Paris',
      viewport: { width, height: 900 },
    });
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.getByRole('heading', { name: 'Best times to post' }).waitFor();
    return page;
  };
  const cells = (page: Page) => page.locator('table.heatmap button.heat-cell');

  for (const width of [1366, 390]) {
    it(`at ${width} px: every cell names its weekday, window and posts, and fits`, async () => {
      const page = await open(key, width);
      expect(await cells(page).count()).toBe(56);
      const labels = await cells(page).evaluateAll((els) =>
        els.map((e) => e.getAttribute('aria-label') ?? ''),
      );
      for (const label of labels)
        expect(label).toMatch(
          /^(Sun|Mon|Tues|Wednes|Thurs|Fri|Satur)day \d\d:00-\d\d:00: \d+ posts?, (too few to compare|[\d.]+× your median)(, stands out)?\. Schedule a post for /,
        );
      // The cell counts add up to the posts with a time (the API's own figure), on Paris's clock.
      const counts = await cells(page).locator('.heat-posts').allTextContents();
      const withTime = (await t.request('GET', '/v1/insights?timezone=Europe/Paris', { key })).body.basedOn
        .withTime;
      expect(counts.reduce((n, c) => n + Number(c), 0)).toBe(withTime);
      const tuesday = page.getByRole('button', {
        name: /^Tuesday 09:00-12:00: 8 posts, [\d.]+× your median, stands out\. Schedule a post for Tue, /,
      });
      expect(await tuesday.locator('.heat-posts').textContent()).toBe('8');
      await page.getByText(/^Tuesday 09:00-12:00: [\d.]+x your median engagement over 8 posts/).waitFor();
      // Readable: no cell's text spills out of it, no cell under 24 px, no sideways scroll.
      const sizes = await cells(page).evaluateAll((els) =>
        els.map((e) => ({
          cell: e.textContent,
          w: e.clientWidth,
          h: e.clientHeight,
          spill: e.scrollWidth > e.clientWidth,
        })),
      );
      expect(sizes.filter((s) => s.spill || s.w < 24 || s.h < 24)).toEqual([]);
      expect(
        Number(
          await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'),
        ),
      ).toBe(0);
      expect(await unlabelledControls(page)).toEqual([]);
      await screenshot(page, `insights-${width}`);
      await page.context().close();
    });
  }

  it("a cell opens Compose scheduled for that weekday and hour's next occurrence on the author's clock", async () => {
    const page = await open(key, 1366);
    await page.getByRole('button', { name: /^Tuesday 09:00-12:00: / }).click();
    await page.getByRole('heading', { name: 'Compose' }).waitFor();
    // The next Tuesday 09:00 in Paris at least an hour away, by the browser's own calendar.
    const expected = await page.evaluate(() => {
      const d = new Date();
      for (;;) {
        d.setHours(9, 0, 0, 0);
        if (d.getDay() === 2 && d.getTime() >= Date.now() + 3_600_000) break;
        d.setDate(d.getDate() + 1);
      }
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T09:00`;
    });
    await expect.poll(() => page.getByLabel(/^Date and time/).inputValue()).toBe(expected);
    await page
      .getByText(/Europe\/Paris/)
      .first()
      .waitFor();
    await page.context().close();
  });

  it('a history too short says so, and every cell still shows its count', async () => {
    const { apiKey } = await t.signup();
    const page = await open(apiKey, 390);
    await page
      .getByText(
        'Not enough history to judge weekdays and times together: 0 posts with engagement and a publish time; at least 20 are needed.',
      )
      .waitFor();
    expect(await page.getByRole('button', { name: /: 0 posts, too few to compare\./ }).count()).toBe(56);
    await page.context().close();
    expect(errors).toEqual([]);
  });
});

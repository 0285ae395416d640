import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import type { TestApp } from '../helpers/app.ts';
import { PIPELINE_POST } from '../helpers/sample-post.ts';
import { CHROMIUM, chartPng, hasChromium, SCREENSHOTS, screenshot, unlabelledControls } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * The console end to end in Debian's Chromium (playwright-core, no browser download), against
 * the real API and the platformA sandbox on loopback: sign up, connect a channel through the
 * sandbox's consent page, upload an image, compose and score a post, schedule it, find it on
 * the calendar, watch it become published, and read a failed post's reason. Screenshots of
 * every page land in test/console/.screenshots/ (git-ignored).
 */
if (!hasChromium) {
  console.warn(
    `console browser tests skipped: ${CHROMIUM} is missing (install it with: apt-get update && apt-get install -y chromium)`,
  );
}

const ZONE = 'America/New_York';
const LONG_POST = PIPELINE_POST;

describe.skipIf(!hasChromium)('console in a real browser', { timeout: 120_000 }, () => {
  let world: BrowserWorld;
  let sandbox: Sandbox;
  let t: TestApp;
  let page: Page;
  let browserErrors: string[];
  /** Follows a link in the page navigation. */
  const open = (name: string) =>
    page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name, exact: true }).click();

  beforeAll(async () => {
    // The sandbox shows its consent page (this suite clicks through it) and nothing is connected
    // yet: the suite signs up and connects in the browser as a newcomer does.
    world = await startBrowserWorld(
      { PLATFORMA_BACKOFF_SCALE: '0.001', SWEEP_INTERVAL_MS: '1000' },
      { platforms: ['platformA'], connect: [], autoApprove: false, service: { autoStartRunner: true } },
    );
    ({ t, sandbox, errors: browserErrors } = world);
    page = await world.newPage({ timezoneId: ZONE });
    page.setDefaultTimeout(20_000);
  }, 240_000);

  afterAll(async () => {
    await world?.close();
  });

  it('signs up and shows the key once, with a copy button', async () => {
    await page.goto(t.url);
    await expect.poll(() => page.getByRole('heading', { name: 'Postkit Studio' }).count()).toBe(1);
    await screenshot(page, '01-sign-in');
    await page.getByLabel('Email').fill(`e2e-${randomBytes(3).toString('hex')}@example.com`);
    await page.getByRole('button', { name: 'Create account' }).click();
    const key = await page.locator('code.secret-value').textContent();
    expect(key).toMatch(/^kit_sk_/);
    await expect.poll(() => page.getByRole('button', { name: 'Copy' }).count()).toBe(1);
    await screenshot(page, '02-key-shown-once');
    await page.getByRole('button', { name: 'Continue to the console' }).click();
    await page.getByRole('heading', { name: 'Compose' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('postkit.apiKey'))).toBe(key);
  });

  it('connects a sandbox channel through the consent page and comes back to the console', async () => {
    await open('Channels');
    await page.getByRole('button', { name: 'Connect platformA' }).click();
    // The sandbox's consent page, as the member.
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Channel connected.').waitFor();
    expect(new URL(page.url()).hash).toMatch(/^#\/channels\?connected=chn_/);
    await page.locator('.channel').getByText('Connected').waitFor();
    await screenshot(page, '03-channels');
  });

  it('uploads an image by the file picker with progress, and previews it', async () => {
    await open('Media');
    await page.getByLabel('Choose files to upload').setInputFiles({
      name: 'q3-chart.png',
      mimeType: 'image/png',
      buffer: chartPng(),
    });
    await page.locator('.media-list img[alt="q3-chart.png"]').waitFor();
    // Drag and drop: a PDF dropped on the zone is uploaded the same way.
    await page.evaluate(`(() => {
      const data = new DataTransfer();
      data.items.add(new File(['%PDF-1.7\\n% a one-page brief\\n'], 'brief.pdf', { type: 'application/pdf' }));
      const zone = document.querySelector('.dropzone');
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    })()`);
    await page.locator('.media-list strong', { hasText: 'brief.pdf' }).waitFor();
    await screenshot(page, '04-media');
  });

  it('composes with live validation, a platform-accurate preview and a score', async () => {
    await open('Compose');
    await page.getByLabel('Post', { exact: true }).fill(LONG_POST);
    // Live validation (no model call) reports as you type.
    await page
      .locator('#validation')
      .getByText(/characters/)
      .waitFor();
    // platformA's card folds behind "see more".
    await page.getByRole('button', { name: 'see more' }).waitFor();
    await page.locator('.picker summary').click();
    await page.getByLabel('q3-chart.png').check();
    await page.getByRole('button', { name: 'Score', exact: true }).click();
    // Scoring is a long operation (a model, or the learned scorer's first load): allow it a minute.
    await page.locator('.score .big').first().waitFor({ timeout: 60_000 });
    const overall = Number(await page.locator('.score .big').first().textContent());
    expect(overall).toBeGreaterThanOrEqual(0);
    expect(overall).toBeLessThanOrEqual(100);
    expect(await page.locator('.signals li').count()).toBeGreaterThan(0);
    expect(await page.locator('.dims .dim').count()).toBe(6);
    // The schedule field names the browser's timezone.
    await page.getByText(ZONE).first().waitFor();
    await screenshot(page, '05-compose-scored');
  });

  it('rewrites with a before/after diff and both scores', async () => {
    await page.getByText('Rewrite this post').click();
    await page.getByRole('button', { name: 'Rewrite', exact: true }).click();
    // The offline engine keeps this post as it is, and then offers nothing to use (a model rewrites it):
    // e2e-newcomer.test.ts covers both cases.
    await page.locator('.rewrite').waitFor({ timeout: 60_000 });
    expect(await page.locator('.rewrite').textContent()).toMatch(
      /Before \d+ → after \d+|kept your text as it is \(score \d+\)/,
    );
    await screenshot(page, '06-rewrite');
    await page.getByText('Rewrite this post').click();
  });

  it('schedules the post, shows it on the calendar and watches it become published', async () => {
    const when = await page.evaluate(() => {
      const d = new Date(Date.now() + 20_000);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
    });
    await page.getByLabel(/Date and time/).fill(when);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByText(/Scheduled for .*E[SD]T/).waitFor();

    await open('Calendar');
    const event = page.locator('.fc-event', { hasText: 'We cut our deploy time' });
    await event.first().waitFor();
    await screenshot(page, '07-calendar-scheduled');

    // The worker publishes it when due; the calendar refreshes itself.
    await page
      .locator('.fc-event.ev-published', { hasText: 'We cut our deploy time' })
      .first()
      .waitFor({ timeout: 60_000 });
    await screenshot(page, '08-calendar-published');
    await event.first().click();
    // A calendar event opens the post's own page.
    await page
      .getByText(/^Published on /)
      .first()
      .waitFor();
    expect(sandbox.platformA.state.posts.size).toBe(1);
    await screenshot(page, '09-posts-published');
  }, 90_000);

  it("shows a failed post's reason in words with what to do", async () => {
    sandbox.platformA.faults.duplicateNext();
    await open('Compose');
    await page
      .getByLabel('Post', { exact: true })
      .fill('Shipping notes for week 47: three fixes, one new report.');
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByText('The post failed.').waitFor();
    await open('Posts');
    await page.getByRole('tab', { name: 'Failed' }).click();
    const row = page.locator('.post-row', { hasText: 'Shipping notes for week 47' });
    await row.getByText('Why it failed:').waitFor();
    expect(await row.textContent()).toMatch(/duplicate/i);
    expect(await row.textContent()).toMatch(/change the wording/);
    await screenshot(page, '10-posts-failed');
  });

  it('reschedules a scheduled post from the keyboard-friendly Posts page', async () => {
    await open('Compose');
    await page
      .getByLabel('Post', { exact: true })
      .fill('Office hours on Thursday: bring your deploy questions.');
    const inputValue = (offsetMs: number) =>
      page.evaluate((ms) => {
        const d = new Date(Date.now() + ms);
        const p = (n: number) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
      }, offsetMs);
    await page.getByLabel(/Date and time/).fill(await inputValue(3_600_000));
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByText(/Scheduled for/).waitFor();
    await open('Posts');
    const row = page.locator('.post-row', { hasText: 'Office hours on Thursday' });
    await row.getByRole('button', { name: 'Reschedule' }).click();
    const later = await inputValue(2 * 3_600_000);
    await row.getByLabel('New time').fill(later);
    await row.getByRole('button', { name: 'Move' }).click();
    await row.getByRole('button', { name: 'Reschedule' }).waitFor();
    const posts = await t.request('GET', '/v1/posts?status=scheduled', {
      key: (await page.evaluate(() => localStorage.getItem('postkit.apiKey'))) ?? '',
    });
    const moved = posts.body.posts.find((p: { text: string }) => p.text.startsWith('Office hours'));
    // The browser's own reading of the wall time in its zone (America/New_York, daylight saving included).
    expect(moved.scheduledFor).toBe(await page.evaluate((v) => new Date(v).getTime(), later));
  });

  it('reschedules a post by dragging it on the calendar', async () => {
    await open('Compose');
    await page.getByLabel('Post', { exact: true }).fill('Friday retro notes: what we will stop doing.');
    const tomorrowTen = await page.evaluate(() => {
      const d = new Date();
      d.setDate(d.getDate() + 1);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T10:00`;
    });
    await page.getByLabel(/Date and time/).fill(tomorrowTen);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByText(/Scheduled for/).waitFor();
    await open('Calendar');
    await page.getByRole('button', { name: 'Day', exact: true }).click();
    await page.locator('.fc-next-button').click();
    const event = page.locator('.fc-event', { hasText: 'Friday retro notes' });
    // Away from the viewport's edge, where a drag would scroll the calendar instead of moving.
    await event.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const box = (await event.boundingBox())!;
    const slot = (await page.locator('.fc-timegrid-slot').first().boundingBox())!;
    // Two 30-minute slots down: one hour later.
    await page.mouse.move(box.x + box.width / 2, box.y + 8);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y + 8 + slot.height, { steps: 5 });
    await page.mouse.move(box.x + box.width / 2, box.y + 8 + 2 * slot.height, { steps: 5 });
    const saved = page.waitForResponse((r) => /\/v1\/posts\/[^/]+\/schedule$/.test(r.url()));
    await page.mouse.up();
    expect((await saved).status()).toBe(200);
    await page.getByText(/Moved to .*11:00/).waitFor();
    await screenshot(page, '16-calendar-dragged');
    const key = (await page.evaluate(() => localStorage.getItem('postkit.apiKey'))) ?? '';
    const posts = await t.request('GET', '/v1/posts?status=scheduled', { key });
    const moved = posts.body.posts.find((p: { text: string }) => p.text.startsWith('Friday retro notes'));
    expect(moved.scheduledFor).toBe(
      await page.evaluate((v) => new Date(v).getTime() + 3_600_000, tomorrowTen),
    );
  });

  it('renders every other page with a label on every control', async () => {
    for (const [path, heading] of [
      ['/analytics', 'Analytics'],
      ['/plan', 'Plan'],
      ['/brands', 'Brands & voices'],
      ['/webhooks', 'Webhooks'],
      ['/posts', 'Posts'],
      ['/channels', 'Channels'],
      ['/compose', 'Compose'],
    ] as const) {
      await page.goto(`${t.url}/#${path}`);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      expect(await unlabelledControls(page), path).toEqual([]);
    }
    await page.goto(`${t.url}/#/plan`);
    await page
      .getByLabel('Brief')
      .fill('Lessons from running a small platform team: deploys, on-call, hiring.');
    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    await page.getByRole('button', { name: 'Turn into a draft' }).first().waitFor();
    await screenshot(page, '11-plan');
    await page.goto(`${t.url}/#/analytics`);
    await page.getByText('Score against engagement').waitFor();
    await screenshot(page, '12-analytics');
    await page.goto(`${t.url}/#/webhooks`);
    await page.getByLabel('HTTPS URL').fill('https://example.com/hooks/postkit');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('Signing secret.').waitFor();
    await screenshot(page, '13-webhooks');
    await page.goto(`${t.url}/#/brands`);
    await page.getByRole('button', { name: 'New brand' }).click();
    const form = page.locator('form', { hasText: 'New brand' });
    await form.getByLabel('Name', { exact: true }).fill('Platform team');
    await form.getByLabel('Audience').fill('engineering managers');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Platform team' }).waitFor();
    await screenshot(page, '14-brands');
  }, 90_000);

  it('works on a phone-sized screen and from the keyboard', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${t.url}/#/compose`);
    await page.reload();
    await page.getByRole('heading', { name: 'Compose' }).waitFor();
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
    expect(overflow).toBeLessThanOrEqual(1);
    await screenshot(page, '15-compose-phone');
    // Tab from the top reaches the skip link first, then the controls in order.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(browserErrors).toEqual([]);
  });

  it('sign out forgets the key', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Create account' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('postkit.apiKey'))).toBeNull();
    expect(SCREENSHOTS).toContain('.screenshots');
  });
});

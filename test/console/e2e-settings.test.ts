import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { startTeam, type Team } from '../teams/team-world.ts';
import { CHROMIUM, hasChromium, screenshot, unlabelledControls } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * Settings that set things (issue 33 item 9), in Debian's Chromium against the real API: the
 * owner changes the account's time zone (a name that is not a zone is refused beside the field,
 * the browser's own zone is one click) and its email (one another account has is refused); the
 * Queue and Insights pages then start in that zone. An admin changes the zone but not the email;
 * an editor reads both. Every line on the page is said once.
 */
if (!hasChromium) {
  console.warn(`console settings test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
}

describe.skipIf(!hasChromium)('Settings in a real browser', { timeout: 90_000 }, () => {
  let world: BrowserWorld;
  let t: TestApp;
  let team: Team;
  const settingsOf = async (key: string) =>
    (await t.request('GET', '/v1/account/settings', { key })).body.settings;
  const emailOf = async (key: string) => (await t.request('GET', '/v1/account', { key })).body.account.email;
  const openSettings = (key: string) =>
    world.open('/settings', 'Settings', {
      key,
      timezoneId: 'Europe/Paris',
      viewport: { width: 1366, height: 900 },
    });
  /** How many times `line` appears in what the page shows (its rendered text). */
  const timesShown = async (page: Page, line: string) =>
    ((await page.locator('body').textContent()) ?? '').split(line).length - 1;

  beforeAll(async () => {
    world = await startBrowserWorld();
    t = world.t;
    team = await startTeam(t);
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  it('the owner sets the time zone: a wrong name is refused beside the field, the browser’s zone is one click', async () => {
    const page = await openSettings(team.owner.apiKey);
    const zone = page.getByLabel('Time zone', { exact: true });
    await expect.poll(() => zone.inputValue()).toBe('UTC');
    expect(await timesShown(page, 'Offline engine: no language model is configured.')).toBe(1);
    await zone.fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    const refusal = 'Unknown time zone "Mars/Olympus"; use an IANA name such as Europe/Paris.';
    await page.getByRole('alert').filter({ hasText: refusal }).waitFor();
    expect(await timesShown(page, refusal)).toBe(1);
    expect(await timesShown(page, 'Not an IANA time zone')).toBe(0);
    expect((await settingsOf(team.owner.apiKey)).timezone).toBe('UTC');

    await page.getByRole('button', { name: 'Use this browser’s zone (Europe/Paris)' }).click();
    await page.getByText('The account’s time zone is now Europe/Paris.').waitFor();
    expect((await settingsOf(team.owner.apiKey)).timezone).toBe('Europe/Paris');
    expect(await page.getByRole('alert').count()).toBe(0);
    // The browser is in the account's zone now: nothing more to offer.
    expect(await page.getByRole('button', { name: /Use this browser/ }).count()).toBe(0);

    await zone.fill('asia/tokyo');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByText('The account’s time zone is now Asia/Tokyo.').waitFor();
    expect(await zone.inputValue()).toBe('Asia/Tokyo');
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, 'settings-1366');
    await page.context().close();
  });

  it('Queue and Insights start in the account’s zone and say so where the browser is elsewhere', async () => {
    expect((await settingsOf(team.owner.apiKey)).timezone).toBe('Asia/Tokyo');
    const hint = 'Asia/Tokyo is the account’s time zone; this browser is in Europe/Paris.';
    const insights = await world.open('/insights', 'Insights', {
      key: team.owner.apiKey,
      timezoneId: 'Europe/Paris',
    });
    await insights.getByText(/^What your own history shows, in Asia\/Tokyo\./).waitFor();
    await insights.getByText(hint).waitFor();
    expect(await timesShown(insights, hint)).toBe(1);
    await insights.context().close();

    // The world's own account has a channel without slots: its queue starts in that account's zone.
    const set = await t.request('PATCH', '/v1/account/settings', {
      key: world.key,
      body: { timezone: 'Asia/Tokyo' },
    });
    expect(set.status, set.text).toBe(200);
    const queue = await world.open('/queue', 'Queue', { timezoneId: 'Europe/Paris' });
    await expect.poll(() => queue.getByLabel('Time zone').inputValue()).toBe('Asia/Tokyo');
    await queue.getByText(hint).waitFor();
    await queue.context().close();
  });

  it('the owner changes the email; one another account has is refused and nothing changes', async () => {
    const other = await t.signup(`taken-${Date.now()}@example.com`);
    const taken = await emailOf(other.apiKey);
    const page = await openSettings(team.owner.apiKey);
    const email = page.getByLabel('Email', { exact: true });
    await expect.poll(() => email.inputValue()).toBe(team.owner.email);
    await email.fill(taken);
    await page.getByRole('button', { name: 'Save email' }).click();
    const refusal = 'Another account already uses that email; choose another one.';
    await page.getByRole('alert').filter({ hasText: refusal }).waitFor();
    expect(await timesShown(page, refusal)).toBe(1);
    expect(await emailOf(team.owner.apiKey)).toBe(team.owner.email);

    const next = `renamed-${Date.now()}@agency.example`;
    await email.fill(next);
    await page.getByRole('button', { name: 'Save email' }).click();
    await page.getByText(`The account’s email is now ${next}.`).waitFor();
    expect(await emailOf(team.owner.apiKey)).toBe(next);
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.context().close();
  });

  it('an admin sets the zone but not the email; an editor reads both', async () => {
    const admin = await team.add('admin');
    const page = await openSettings(admin.apiKey);
    await expect.poll(() => page.getByLabel('Time zone', { exact: true }).inputValue()).toBe('Asia/Tokyo');
    await page.getByText('(only the account’s owner can change it)').waitFor();
    expect(await page.getByLabel('Email', { exact: true }).count()).toBe(0);
    await page.getByLabel('Time zone', { exact: true }).fill('America/New_York');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByText('The account’s time zone is now America/New_York.').waitFor();
    await page.context().close();

    const editor = await team.add('editor');
    const read = await openSettings(editor.apiKey);
    await read.getByText(/^Time zone: America\/New_York\. New queues and Insights use it/).waitFor();
    await read.getByText('(an admin or the owner can change it)').waitFor();
    expect(await read.getByRole('textbox').count()).toBe(0);
    await screenshot(read, 'settings-editor-1366');
    await read.context().close();
    expect(world.errors).toEqual([]);
  });
});

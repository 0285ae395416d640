import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium, screenshot } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * An invitation link opened in a real browser (Debian's Chromium): the Join page takes a name
 * and a password, shows the first key once, and opens the console as the new member.
 */
if (!hasChromium)
  console.warn(`console join test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

describe.skipIf(!hasChromium)('joining a workspace from an invitation link', { timeout: 90_000 }, () => {
  let world: BrowserWorld;
  beforeAll(async () => {
    world = await startBrowserWorld();
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  it('the invited writer joins as an editor and lands in the console signed in', async () => {
    const { t, key } = world;
    const invited = await t.request('POST', '/v1/invitations', {
      key,
      body: { email: 'writer@agency.example', role: 'editor' },
    });
    expect(invited.status, invited.text).toBe(201);
    const page = await world.newPage();
    await page.goto(invited.body.acceptUrl);
    await page.getByRole('heading', { name: 'Join a workspace' }).waitFor();
    await page.getByLabel('Your name').fill('Wren Writer');
    await page.getByLabel(/^Password/).fill('a long enough password');
    await screenshot(page, 'join-form');
    await page.getByRole('button', { name: 'Join the workspace' }).click();
    await page.getByRole('heading', { name: 'You joined as an editor' }).waitFor();
    const shown = await page.locator('.secret-value').textContent();
    expect(shown).toMatch(/^kit_sk_/);
    await screenshot(page, 'join-done');
    await page.getByRole('button', { name: 'Continue to the console' }).click();
    await page.getByText('Sign out').waitFor();
    const me = await t.request('GET', '/v1/account', { key: shown! });
    expect(me.body.member).toMatchObject({
      name: 'Wren Writer',
      role: 'editor',
      email: 'writer@agency.example',
    });

    // The same link a second time says it was used.
    const again = await world.newPage();
    await again.goto(invited.body.acceptUrl);
    await again.getByRole('button', { name: 'Join the workspace' }).click();
    await again.getByText(/already been accepted/).waitFor();
    expect(world.errors).toEqual([]);
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitations, members } from '../../src/db/schema/index.ts';
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

  it('the invited writer reads who invites them, to what and as what, joins as an editor and lands signed in', async () => {
    const { t, key } = world;
    const owner = (await t.request('GET', '/v1/account', { key })).body.member;
    await t.service.deps.db.update(members).set({ name: 'Olive Owner' }).where(eq(members.id, owner.id));
    await t.request('PATCH', '/v1/account/settings', { key, body: { approvals: 'required' } });
    const invited = await t.request('POST', '/v1/invitations', {
      key,
      body: { email: 'writer@agency.example', role: 'editor' },
    });
    expect(invited.status, invited.text).toBe(201);
    const page = await world.newPage();
    await page.goto(invited.body.acceptUrl);
    await page.getByRole('heading', { name: 'Join a workspace' }).waitFor();
    await page
      .getByRole('heading', {
        name: `Olive Owner invited you to join the workspace of ${owner.email} as an editor`,
      })
      .waitFor();
    await page
      .getByText(
        'As an editor, you can write drafts and submit them for approval: an owner or admin approves a post before it is scheduled or published.',
      )
      .waitFor();
    await page.getByText(/^You will join as writer@agency\.example\. The link works once, until /).waitFor();
    await page.getByLabel('Your name').fill('Wren Writer');
    await page.getByLabel(/^Password/).fill('a long enough password');
    await screenshot(page, 'join-form');
    await page.getByRole('button', { name: 'Join the workspace' }).click();
    await page
      .getByRole('heading', { name: `You joined the workspace of ${owner.email} as an editor` })
      .waitFor();
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

    // The same link a second time says it was used, offers signing in, and shows no form.
    const again = await world.newPage();
    await again.goto(invited.body.acceptUrl);
    await again.getByText('This invitation link has already been used.').waitFor();
    await again.getByRole('link', { name: 'sign in' }).waitFor();
    expect(await again.getByRole('button', { name: 'Join the workspace' }).count()).toBe(0);
    expect(await again.textContent('body')).not.toContain(owner.email);
    expect(world.errors).toEqual([]);
  });

  it('an expired or withdrawn link says so and what to do, naming no workspace', async () => {
    const { t, key } = world;
    const owner = (await t.request('GET', '/v1/account', { key })).body.member;
    const expiring = await t.request('POST', '/v1/invitations', {
      key,
      body: { email: 'late@agency.example', role: 'viewer' },
    });
    await t.service.deps.db
      .update(invitations)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(invitations.id, expiring.body.invitation.id));
    const page = await world.newPage();
    await page.goto(expiring.body.acceptUrl);
    await page
      .getByText(
        'This invitation link has expired. Invitation links work for 7 days; ask the person who invited you for a new one.',
      )
      .waitFor();
    expect(await page.textContent('body')).not.toContain(owner.email);

    const withdrawn = await t.request('POST', '/v1/invitations', {
      key,
      body: { email: 'withdrawn@agency.example', role: 'viewer' },
    });
    await t.request('DELETE', `/v1/invitations/${withdrawn.body.invitation.id}`, { key });
    const gone = await world.newPage();
    await gone.goto(withdrawn.body.acceptUrl);
    await gone.getByText('This invitation link does not work.').waitFor();
    expect(await gone.getByRole('button', { name: 'Join the workspace' }).count()).toBe(0);
    await screenshot(gone, 'join-withdrawn');
    expect(world.errors).toEqual([]);
  });
});

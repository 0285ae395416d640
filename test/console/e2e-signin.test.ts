import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium, screenshot } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * Console sign-in with email and password in a real browser (Debian's Chromium): the owner sets
 * a password on the Team page, signs out, signs in with email and password, works through the
 * session (an invitation, which needs the CSRF token), survives a reload, and signs out.
 */
if (!hasChromium)
  console.warn(`console sign-in test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

describe.skipIf(!hasChromium)('signing in with email and password', { timeout: 120_000 }, () => {
  let world: BrowserWorld;
  beforeAll(async () => {
    world = await startBrowserWorld();
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  it('the owner sets a password, signs in with it, invites a writer, reloads and signs out', async () => {
    const { t, key } = world;
    const email: string = (await t.request('GET', '/v1/account', { key })).body.member.email;
    const password = 'the owner’s own passphrase';

    const team = await world.open('/team', 'Team');
    await team.getByLabel('New password (at least 10 characters)').fill(password);
    await team.getByRole('button', { name: 'Save password' }).click();
    await team.getByText('Password saved.').waitFor();
    await team.getByRole('button', { name: 'Sign out' }).click();
    await team.getByRole('heading', { name: 'Set a password? Sign in as yourself' }).waitFor();

    // A wrong password is refused in words, and nothing is stored.
    await team.getByRole('button', { name: 'Use my email and password' }).click();
    const card = team.getByRole('region', { name: 'Set a password? Sign in as yourself' });
    await team.getByLabel('Email address').fill(email);
    await team.getByLabel('Password', { exact: true }).fill('not the passphrase');
    await card.getByRole('button', { name: 'Sign in', exact: true }).click();
    await team.getByText('That email and password were not accepted').waitFor();
    await screenshot(team, 'signin-password-wrong');

    await team.getByLabel('Password', { exact: true }).fill(password);
    await card.getByRole('button', { name: 'Sign in', exact: true }).click();
    await team.getByRole('button', { name: 'Sign out' }).waitFor();
    // Signed in by the cookie alone: no key in the page's storage, and the cookie out of scripts' reach.
    expect(await team.evaluate(() => localStorage.getItem('postkit.apiKey'))).toBeNull();
    expect(await team.evaluate<string>('document.cookie')).not.toContain('postkit_session');
    const cookies = await team.context().cookies();
    const session = cookies.find((c) => c.name === 'postkit_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

    // An unsafe request through the session: the console sends the CSRF token.
    await team.goto(`${t.url}/#/team`);
    await team.getByRole('heading', { name: 'Invite someone' }).waitFor();
    await team.getByLabel('Email', { exact: true }).fill('writer@agency.example');
    await team.getByRole('button', { name: 'Create the invitation' }).click();
    await team.getByText('Send this link to writer@agency.example').waitFor();
    await screenshot(team, 'signin-password-session');
    const invitations = await t.request('GET', '/v1/invitations', { key });
    expect(invitations.body.invitations.map((i: { email: string }) => i.email)).toContain(
      'writer@agency.example',
    );

    // A reload keeps the session (the page asks GET /v1/account for it).
    await team.reload();
    await team.getByRole('heading', { name: 'Team' }).waitFor();

    await team.getByRole('button', { name: 'Sign out' }).click();
    await team.getByRole('heading', { name: 'Set a password? Sign in as yourself' }).waitFor();
    await team.reload();
    await team.getByRole('heading', { name: 'Set a password? Sign in as yourself' }).waitFor();
    expect((await team.context().cookies()).find((c) => c.name === 'postkit_session')).toBeUndefined();
    expect(world.errors).toEqual([]);
  });
});

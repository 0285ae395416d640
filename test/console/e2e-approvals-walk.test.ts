import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium, screenshot } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * The agency's approvals walk, every step in Debian's Chromium through the console's own
 * controls: the owner turns approvals on and invites a writer (editor) and a lead (admin) on the
 * Team page; each joins from their link; the writer drafts a post in Compose and submits it; the
 * lead sends it back with a note, which the writer reads; the writer edits it and submits again;
 * the lead approves; the writer publishes it and it reaches the sandbox platform once.
 */
if (!hasChromium)
  console.warn(`approvals walk test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

describe.skipIf(!hasChromium)('an agency walks approvals in the console', { timeout: 180_000 }, () => {
  let world: BrowserWorld;
  beforeAll(async () => {
    world = await startBrowserWorld();
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  /** Invites `email` as `role` on the owner's Team page and returns the link it shows once. */
  async function invite(team: Page, email: string, role: 'editor' | 'admin'): Promise<string> {
    const form = team.getByRole('button', { name: 'Create the invitation' }).locator('xpath=ancestor::form');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Role').selectOption(role);
    await form.getByRole('button', { name: 'Create the invitation' }).click();
    await team.getByText(`Send this link to ${email}; it works once`).waitFor();
    return (await team.locator('.notice .secret-value').textContent())!;
  }

  /** Opens an invitation link in a fresh browser, joins with a name, and lands in the console. */
  async function join(link: string, name: string, invitedAs: string): Promise<Page> {
    const page = await world.newPage();
    await page.goto(link);
    await page
      .getByRole('heading', { name: new RegExp(`invited you to join .+ as ${invitedAs}$`) })
      .waitFor();
    await page.getByLabel('Your name').fill(name);
    await page.getByRole('button', { name: 'Join the workspace' }).click();
    await page.getByRole('button', { name: 'Continue to the console' }).click();
    await page.getByText('Sign out').waitFor();
    return page;
  }

  it('the writer drafts and submits, the lead sends back with a note, then approves; the post goes out once', async () => {
    const { t } = world;
    const team = await world.open('/team', 'Team');
    await team.getByRole('combobox', { name: /^Approvals/ }).selectOption('required');
    await team.getByText(/^Required: an editor’s posts are scheduled or published only once/).waitFor();
    const writerLink = await invite(team, 'writer@agency.example', 'editor');
    const leadLink = await invite(team, 'lead@agency.example', 'admin');
    await screenshot(team, 'walk-team-invited');

    const writer = await join(writerLink, 'Wren Writer', 'an editor');
    // The top bar names the person signed in, not only the workspace.
    const workspace = (await t.request('GET', '/v1/account', { key: world.key })).body.account.email;
    expect(await writer.locator('.top .who').textContent()).toBe(
      `Wren Writer, in the workspace of ${workspace}`,
    );
    const lead = await join(leadLink, 'Lee Lead', 'an admin');

    // The writer drafts in Compose: with approvals required, Compose offers review, not publishing.
    const text = `Our spring launch is on Tuesday: three new templates for clinic managers ${Date.now()}`;
    await writer.goto(`${t.url}/#/compose`);
    await writer.getByRole('heading', { name: 'Compose' }).waitFor();
    await writer.getByLabel('Post', { exact: true }).fill(text);
    await writer.getByText(/^Draft saved at /).waitFor();
    // The check under the post says what this writer can do with it: submit it, not publish it.
    await writer.locator('#validation').getByText('✔ Ready to submit for review').waitFor();
    await screenshot(writer, 'walk-writer-compose');
    expect(await writer.getByRole('button', { name: 'Publish now' }).count()).toBe(0);
    expect(await writer.getByText('Ready to publish').count()).toBe(0);
    await writer.getByRole('button', { name: 'Submit for review' }).click();
    await writer.getByText('Waiting for an owner or admin to approve it.').first().waitFor();
    await writer.locator('#validation').getByText('✔ Ready for review').waitFor();
    const tweets = () => world.sandbox.platformB.state.listTweets().filter((tw) => tw.text.startsWith(text));

    // The lead sees it waiting and sends it back with a note.
    await lead.goto(`${t.url}/#/approvals`);
    const waiting = lead.getByRole('article', { name: 'Post by Wren Writer' });
    await waiting.getByText(text).waitFor();
    await waiting.getByLabel('Note for the writer').fill('Name the three templates.');
    await waiting.getByRole('button', { name: 'Ask for changes' }).click();
    await lead.getByText('Nothing is waiting.').waitFor();

    // The writer reads the note where the post is, edits it and submits it again.
    await writer.goto(`${t.url}/#/approvals`);
    const sentBack = writer.getByRole('article', { name: 'Draft' }).filter({ hasText: text });
    await sentBack.getByText('Lee Lead asked for changes: Name the three templates.').waitFor();
    await screenshot(writer, 'walk-writer-sent-back');
    await sentBack.getByRole('link', { name: 'Edit it in Compose' }).click();
    await writer.getByRole('heading', { name: 'Edit draft' }).waitFor();
    await writer.getByText('Lee Lead asked for changes: Name the three templates.').waitFor();
    const edited = `${text}: intake, follow-up and no-show.`;
    await writer.getByLabel('Post', { exact: true }).fill(edited);
    await writer.getByText(/^Draft saved at /).waitFor();
    await writer.getByRole('button', { name: 'Submit for review' }).click();
    await writer.getByText('Waiting for an owner or admin to approve it.').first().waitFor();

    // The lead approves the edited post.
    await lead.reload();
    const again = lead.getByRole('article', { name: 'Post by Wren Writer' });
    await again.getByText(edited).waitFor();
    // The lead sees the time the writer asked for, and what approving does with it.
    await again.getByText(/^Submitted by Wren Writer for .+: approving schedules it then\.$/).waitFor();
    await again.getByRole('button', { name: 'Approve' }).click();
    await lead.getByText('Nothing is waiting.').waitFor();
    expect(tweets()).toHaveLength(0);

    // The writer sees it approved and scheduled for the time wanted, and publishes it now instead.
    await writer.goto(`${t.url}/#/approvals`);
    const approved = writer.getByRole('article', { name: 'Approved post' }).filter({ hasText: edited });
    await approved.getByText(/^Approved by Lee Lead\. It is scheduled for /).waitFor();
    await screenshot(writer, 'walk-writer-approved');
    await approved.getByRole('link', { name: 'Open it in Compose' }).click();
    await writer.getByRole('heading', { name: 'Edit scheduled post' }).waitFor();
    // Approved, it is the writer's to publish, and the check says so.
    await writer.locator('#validation').getByText('✔ Ready to publish').waitFor();
    await writer.getByRole('button', { name: 'Publish now' }).click();
    await writer
      .locator('.notice.success')
      .getByText(/^Published/)
      .waitFor();
    await expect.poll(() => tweets().length, { timeout: 15_000 }).toBe(1);
    expect(tweets()[0]!.text).toBe(edited);
    await screenshot(writer, 'walk-writer-published');
    expect(world.errors).toEqual([]);
  });
});

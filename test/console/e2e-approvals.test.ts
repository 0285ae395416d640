import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopesForRole } from '../../src/domain/roles.ts';
import { issueKey } from '../../src/features/keys/keys.service.ts';
import { insertMember } from '../../src/features/members/member-row.ts';
import { CHROMIUM, hasChromium, screenshot } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * An agency in a real browser (Debian's Chromium): the workspace requires approvals, a writer
 * (editor) drafts a post and submits it on the Approvals page, cannot publish it before it is
 * approved, the lead (admin) approves it from the queue with a note, and the writer's publish
 * then reaches the sandbox platform once.
 */
if (!hasChromium)
  console.warn(`console approvals test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

describe.skipIf(!hasChromium)('a writer submits, a lead approves', { timeout: 120_000 }, () => {
  let world: BrowserWorld;
  beforeAll(async () => {
    world = await startBrowserWorld();
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  /** A member of the world's workspace with their first key, as an accepted invitation makes one. */
  async function member(role: 'editor' | 'admin', name: string) {
    const { db, clock } = world.t.service.deps;
    const now = clock.now();
    return db.transaction(async (tx) => {
      const email = `${role}-${now}@agency.example`;
      const row = await insertMember(tx, { accountId: world.accountId, email, name, role, now });
      const { apiKey } = await issueKey(
        tx,
        { accountId: world.accountId, memberId: row!.id },
        'first',
        now,
        scopesForRole(role),
      );
      return { memberId: row!.id, apiKey };
    });
  }

  it('the post reaches the platform only after the lead approves it', async () => {
    const { t } = world;
    const writer = await member('editor', 'Wren Writer');
    const lead = await member('admin', 'Lee Lead');
    const on = await t.request('PATCH', '/v1/account/settings', {
      key: world.key,
      body: { approvals: 'required' },
    });
    expect(on.status, on.text).toBe(200);
    const text = `Our spring launch, reviewed ${Date.now()}`;
    const drafted = await t.request('POST', '/v1/posts', {
      key: writer.apiKey,
      body: { text, channelId: world.channelId },
    });
    expect(drafted.status, drafted.text).toBe(201);
    const tweets = () => world.sandbox.platformB.state.listTweets().filter((tw) => tw.text === text);

    // The writer submits it for review.
    const writerPage = await world.open('/approvals', 'Approvals', { key: writer.apiKey });
    await writerPage.getByText(/Approvals are required/).waitFor();
    const draft = writerPage.getByRole('article', { name: 'Draft' }).filter({ hasText: text });
    await draft.getByRole('button', { name: 'Submit for review' }).click();
    await writerPage.getByText('Waiting for an owner or admin to approve it.').waitFor();
    await screenshot(writerPage, 'approvals-submitted');
    // Compose shows the review beside the draft it edits.
    await writerPage.goto(`${t.url}/#/compose?post=${drafted.body.post.id}`);
    await writerPage.getByText('Waiting for an owner or admin to approve it.').waitFor();

    // Before the approval, Posts offers no publishing (the API would refuse it), and the API refuses it.
    await writerPage.goto(`${t.url}/#/posts`);
    const row = writerPage.locator('.post-row').filter({ hasText: text });
    await row.getByRole('link', { name: 'Edit' }).waitFor();
    expect(await row.getByRole('button', { name: 'Publish now' }).count()).toBe(0);
    const early = await t.request('POST', `/v1/posts/${drafted.body.post.id}/publish`, {
      key: writer.apiKey,
    });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('approval_required');
    expect(tweets()).toHaveLength(0);

    // The lead approves it from the queue, with a note.
    const leadPage = await world.open('/approvals', 'Approvals', { key: lead.apiKey });
    const waiting = leadPage.getByRole('article', { name: 'Post by Wren Writer' });
    await waiting.getByText(text).waitFor();
    await waiting.getByLabel('Note for the writer').fill('Good to go.');
    await screenshot(leadPage, 'approvals-queue');
    await waiting.getByRole('button', { name: 'Approve' }).click();
    await leadPage.getByText('Nothing is waiting.').waitFor();
    const after = await t.request('GET', `/v1/posts/${drafted.body.post.id}`, { key: lead.apiKey });
    expect(after.body.post.approval).toMatchObject({
      state: 'approved',
      decidedBy: lead.memberId,
      note: 'Good to go.',
    });

    // Now the writer's publish goes out, once.
    await writerPage.reload();
    await writerPage
      .locator('.post-row')
      .filter({ hasText: text })
      .getByRole('button', { name: 'Publish now' })
      .click();
    await expect.poll(() => tweets().length, { timeout: 15_000 }).toBe(1);
    // The platform holds the post before Postkit has written the outcome: wait for that write.
    const status = async () =>
      (await t.request('GET', `/v1/posts/${drafted.body.post.id}`, { key: writer.apiKey })).body.post.status;
    await expect.poll(status, { timeout: 15_000 }).toBe('published');
    expect(tweets()).toHaveLength(1);
    expect(world.errors).toEqual([]);
  });

  it('the Approvals page reads the time wanted in the browser’s zone, and its label names that zone', async () => {
    const { t } = world;
    const writer = await member('editor', 'Tove Tokyo');
    const on = await t.request('PATCH', '/v1/account/settings', {
      key: world.key,
      body: { approvals: 'required' },
    });
    expect(on.status, on.text).toBe(200);
    const text = `Our autumn catalogue, timed ${Date.now()}`;
    const drafted = await t.request('POST', '/v1/posts', {
      key: writer.apiKey,
      body: { text, channelId: world.channelId },
    });
    expect(drafted.status, drafted.text).toBe(201);
    const page = await world.open('/approvals', 'Approvals', {
      key: writer.apiKey,
      timezoneId: 'Asia/Tokyo',
    });
    const draft = page.getByRole('article', { name: 'Draft' }).filter({ hasText: text });
    await draft.getByLabel('Publish at (optional, Asia/Tokyo, GMT+9)').fill('2031-01-15T09:00');
    await draft.getByRole('button', { name: 'Submit for review' }).click();
    await draft.getByText('Waiting for an owner or admin to approve it.').waitFor();
    const after = await t.request('GET', `/v1/posts/${drafted.body.post.id}`, { key: writer.apiKey });
    // 09:00 in Tokyo (UTC+9, no daylight saving) is 00:00 UTC.
    expect(after.body.post.approval).toMatchObject({ state: 'pending', runAt: Date.UTC(2031, 0, 15, 0, 0) });
    expect(world.errors).toEqual([]);
  });

  it('the Team page lists the members with their roles and makes an invitation link to copy', async () => {
    const page = await world.open('/team', 'Team');
    await page.getByRole('combobox', { name: 'Role of Wren Writer' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Role of Lee Lead' }).inputValue()).toBe('admin');
    await page.getByLabel('Email').fill('client@agency.example');
    await page.getByRole('button', { name: 'Create the invitation' }).click();
    const link = await page.locator('.notice .secret-value').textContent();
    expect(link).toContain('token=');
    await page.getByRole('button', { name: 'Withdraw the invitation to client@agency.example' }).waitFor();
    await page.getByRole('combobox', { name: 'Role of Wren Writer' }).selectOption('viewer');
    await expect
      .poll(async () => {
        const members = await world.t.request('GET', '/v1/members', { key: world.key });
        return members.body.members.find((m: { name: string }) => m.name === 'Wren Writer')?.role;
      })
      .toBe('viewer');
    await screenshot(page, 'team');
    expect(world.errors).toEqual([]);
  });
});

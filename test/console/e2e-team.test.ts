import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members } from '../../src/db/schema/index.ts';
import { type Role, scopesForRole } from '../../src/domain/roles.ts';
import { issueKey } from '../../src/features/keys/keys.service.ts';
import { insertMember } from '../../src/features/members/member-row.ts';
import { CHROMIUM, hasChromium, screenshot } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * The Team page in Debian's Chromium offers only what the API allows each person: the only
 * owner is not offered a role change or removal of their own row, an admin is not offered to
 * change, remove or make owners, and the table fits a phone's width.
 */
if (!hasChromium)
  console.warn(`console team test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

describe.skipIf(!hasChromium)('the Team page', { timeout: 90_000 }, () => {
  let world: BrowserWorld;
  beforeAll(async () => {
    world = await startBrowserWorld();
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  async function member(role: Role, name: string) {
    const { db, clock } = world.t.service.deps;
    const now = clock.now();
    return db.transaction(async (tx) => {
      const email = `${name.split(' ')[0]!.toLowerCase()}-${now}@agency.example`;
      const row = await insertMember(tx, { accountId: world.accountId, email, name, role, now });
      const { apiKey } = await issueKey(
        tx,
        { accountId: world.accountId, memberId: row!.id },
        'first',
        now,
        scopesForRole(role),
      );
      return { memberId: row!.id, apiKey, email };
    });
  }

  it('offers the only owner no role change and no removal of their own row, and says why', async () => {
    const { t, key } = world;
    const me = (await t.request('GET', '/v1/account', { key })).body.member;
    await t.service.deps.db.update(members).set({ name: 'Olive Owner' }).where(eq(members.id, me.id));
    await member('editor', 'Wren Writer');
    const page = await world.open('/team', 'Team');
    await page.getByRole('combobox', { name: 'Role of Wren Writer' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Role of Olive Owner' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Remove Olive Owner' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Remove Wren Writer' }).waitFor();
    await page
      .getByText(
        'You are the only owner, so your role stays owner: make another member an owner first to change it.',
      )
      .waitFor();
    // An owner may make an owner.
    const options = await page
      .getByRole('combobox', { name: 'Role of Wren Writer' })
      .locator('option')
      .allTextContents();
    expect(options).toEqual(['viewer', 'editor', 'admin', 'owner']);
    expect(world.errors).toEqual([]);
    await page.context().close();
  });

  it('offers an admin only members below owner, and no owner role to give or invite', async () => {
    const admin = await member('admin', 'Ada Admin');
    const page = await world.open('/team', 'Team', { key: admin.apiKey });
    await page.getByRole('combobox', { name: 'Role of Wren Writer' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Role of Olive Owner' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Remove Olive Owner' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Remove Ada Admin' }).count()).toBe(0);
    const options = await page
      .getByRole('combobox', { name: 'Role of Wren Writer' })
      .locator('option')
      .allTextContents();
    expect(options).toEqual(['viewer', 'editor', 'admin']);
    const form = page.getByRole('button', { name: 'Create the invitation' }).locator('xpath=ancestor::form');
    expect(await form.getByLabel('Role').locator('option').allTextContents()).toEqual([
      'viewer',
      'editor',
      'admin',
    ]);
    expect(await page.getByText(/You are the only owner/).count()).toBe(0);
    // What is offered works: the admin makes the writer a viewer.
    await page.getByRole('combobox', { name: 'Role of Wren Writer' }).selectOption('viewer');
    await expect
      .poll(async () => {
        const list = await world.t.request('GET', '/v1/members', { key: world.key });
        return list.body.members.find((m: { name: string }) => m.name === 'Wren Writer')?.role;
      })
      .toBe('viewer');
    expect(world.errors).toEqual([]);
    await page.context().close();
  });

  it('with a second owner, an owner may change their own role; the table fits a 375-pixel phone', async () => {
    await member('owner', 'Otto Owner');
    const page = await world.open('/team', 'Team', { viewport: { width: 375, height: 812 } });
    await page.getByRole('combobox', { name: 'Role of Olive Owner' }).waitFor();
    await page.getByRole('button', { name: 'Remove Otto Owner' }).waitFor();
    expect(await page.getByText(/You are the only owner/).count()).toBe(0);
    const table = await page.locator('table.team-table').boundingBox();
    expect(table!.width).toBeLessThanOrEqual(375);
    const overflow = await page.evaluate(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBe(0);
    const wrapOverflow = await page
      .locator('.table-wrap')
      .first()
      .evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(wrapOverflow).toBe(0);
    await screenshot(page, 'team-phone');
    expect(world.errors).toEqual([]);
    await page.context().close();
  });
});

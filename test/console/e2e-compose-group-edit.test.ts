import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { CHROMIUM, hasChromium } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * No silent dead ends around groups (issue 33), in Debian's Chromium against both sandbox
 * platforms: with several channels chosen, Compose says in one line why Repeat is not offered and
 * what to do, and offers it again with one channel; `#/compose?post=<id>` of a post in a group
 * says plainly that it edits that channel's post only, links the group's other post, and saving
 * changes that post alone, its group kept.
 */
if (!hasChromium) {
  console.warn(`console group-edit test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
}

const tag = randomBytes(3).toString('hex');
const REPEAT_LINE =
  'Repeat makes a series on one channel at a time; to repeat this post, keep one channel (untick the others under Also post to).';

describe.skipIf(!hasChromium)('groups without dead ends in a real browser', { timeout: 90_000 }, () => {
  let world: BrowserWorld;
  let t: TestApp;
  let key: string;
  const postOf = async (id: string) => (await t.request('GET', `/v1/posts/${id}`, { key })).body.post;
  const labelOf = async (id: string) => {
    const { channel } = (await t.request('GET', `/v1/channels/${id}`, { key })).body;
    return `${channel.handle ?? channel.platformUserId} (${channel.platform})`;
  };

  beforeAll(async () => {
    world = await startBrowserWorld({}, { alsoPlatformA: true });
    ({ t, key } = world);
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  it('with two channels, Repeat is explained in one line; with one, it is offered again', async () => {
    const page = await world.open('/compose', 'Compose');
    const select = page.getByRole('combobox', { name: /^Channel/ });
    const b = await select.locator('option', { hasText: '(platformB)' }).getAttribute('value');
    await select.selectOption(b!);
    await page.getByLabel('Post', { exact: true }).fill(`Group edit ${tag}: one tip, two channels.`);
    const repeat = page.getByRole('group', { name: 'Repeat' });
    await repeat.waitFor();
    const also = page
      .getByRole('group', { name: 'Also post to' })
      .getByRole('checkbox', { name: /\(platformA\)/ });
    await also.check();
    await page.getByText(REPEAT_LINE).waitFor();
    expect(await repeat.count()).toBe(0);
    expect(((await page.locator('body').textContent()) ?? '').split(REPEAT_LINE).length - 1).toBe(1);
    await also.uncheck();
    await repeat.waitFor();
    expect(await page.getByText(REPEAT_LINE).count()).toBe(0);
    await page.context().close();
  });

  it('a post of a group opens as that channel’s post, says so, and saves alone', async () => {
    const made = await t.request('POST', '/v1/post-groups', {
      key,
      body: {
        variants: [
          { channelId: world.channels.platformA, text: `Group edit ${tag}: the long version for A.` },
          { channelId: world.channels.platformB, text: `Group edit ${tag}: the short one for B.` },
        ],
      },
    });
    expect(made.status, made.text).toBe(201);
    const [aId, bId] = made.body.group.postIds as [string, string];
    const groupId = made.body.group.id as string;

    const page = await world.open(`/compose?post=${bId}`, 'Edit draft');
    const note = page.getByRole('note').filter({ hasText: /^This post is one of a group of 2/ });
    await note.waitFor();
    expect(await note.textContent()).toBe(
      `This post is one of a group of 2, one per channel. Changes here are made to this post only; the other stays as it is: ${await labelOf(world.channels.platformA!)}.`,
    );
    expect(await page.getByRole('group', { name: 'Also post to' }).count()).toBe(0);
    await expect
      .poll(() => page.getByLabel('Post', { exact: true }).inputValue())
      .toBe(`Group edit ${tag}: the short one for B.`);
    await page.getByLabel('Post', { exact: true }).fill(`Group edit ${tag}: the short one for B, edited.`);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect
      .poll(async () => (await postOf(bId)).text)
      .toBe(`Group edit ${tag}: the short one for B, edited.`);
    const a = await postOf(aId);
    expect(a.text).toBe(`Group edit ${tag}: the long version for A.`);
    expect([a.groupId, (await postOf(bId)).groupId]).toEqual([groupId, groupId]);

    // The other post is one click away, in its own editor.
    await note.getByRole('link').click();
    await page.waitForURL(new RegExp(`compose\\?post=${aId}$`));
    await expect
      .poll(() => page.getByLabel('Post', { exact: true }).inputValue())
      .toBe(`Group edit ${tag}: the long version for A.`);
    expect(world.errors).toEqual([]);
  });
});

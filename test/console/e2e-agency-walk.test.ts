import { afterAll, beforeAll, expect, it } from 'vitest';
import { countedLength } from '../../packages/client/src/text-length.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';
import { CHROMIUM, hasChromium, screenshot } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * What an agency walking the console with its clients' real posts ran into, in Debian's
 * Chromium against the real API and the sandbox: a signal named its dimension by the API's
 * field name ("algorithmFit"); a real post with a space before its line breaks was counted 636
 * by the counter and 634 by the check under it (validate counted the scorer's normalised text,
 * creating the post counts what is sent), two lines saying the same length twice, differently.
 */
if (!hasChromium)
  console.warn(`agency walk test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

const COUNTING = { unit: 'codePoint', urlWeight: 23 } as const;
/** A real post too long for platformB whose lines end in a space before their break. */
const SPACED = readRealPosts('linkedin-creator-posts.csv').find(
  (p) => !p.heldOut && / \n/.test(p.text) && p.text.length > 400 && p.text.length < 900,
)?.text;

describeRealPosts('what an agency found walking the console', () => {
  let world: BrowserWorld;

  beforeAll(async () => {
    if (hasChromium) world = await startBrowserWorld();
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  it.skipIf(!hasChromium)(
    'a post over the limit is counted once, as it will be sent; signals name dimensions in words',
    { timeout: 90_000 },
    async () => {
      expect(SPACED).toBeDefined();
      const text = SPACED!;
      const length = countedLength(COUNTING, text);
      expect(length).toBeGreaterThan(280);
      const page = await world.open('/compose', 'Compose');
      const validated = page.waitForResponse(
        (r) => r.url().endsWith('/v1/posts/validate') && r.request().method() === 'POST',
      );
      await page.getByLabel('Post', { exact: true }).fill(text);
      const report = await (await validated).json();
      // The API counts what will be sent, as the counter does.
      const tooLong = report.errors.find((e: { code: string }) => e.code === 'too_long');
      expect(tooLong?.message).toContain(`${length} weighted characters`);
      const validation = page.locator('#validation');
      await expect.poll(() => validation.textContent()).toContain(`${length}/280 weighted characters`);
      await expect.poll(() => validation.textContent()).toContain('· 0 hashtags');
      // The counter says it, in red; the check does not say it again.
      expect(await validation.locator('.v-error').allTextContents()).toEqual([]);

      await page.getByRole('button', { name: 'Score', exact: true }).click();
      const signals = page.locator('.signals');
      await signals.locator('li').first().waitFor();
      const heads = await signals.locator('.sig-head').allTextContents();
      expect(heads.join('\n')).not.toMatch(/algorithmFit|\(hook,|\(voice,|\(engagement,/);
      expect(heads.join('\n')).toMatch(
        /\((Hook|Algorithm fit|Specificity|Structure|Voice|Engagement), weight \d/,
      );
      await screenshot(page, 'agency-counted-once');
      expect(world.errors).toEqual([]);
      await page.context().close();
    },
  );
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookInbox, type WebhookInbox } from '../../scripts/lib/webhook-inbox.ts';
import { signatureValid } from '../webhooks/helpers.ts';
import { CHROMIUM, hasChromium, screenshot } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * Webhooks tried locally, as `npm run demo` sets them up (issue 33 item 8), in Debian's Chromium:
 * the Webhooks page offers the receiver the demo serves, adds it in one click (its signing secret
 * shown once), sends it a test event, and shows what arrived there, read from the receiver itself.
 */
if (!hasChromium) {
  console.warn(`console webhook-receiver test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
}

describe.skipIf(!hasChromium)('the demo webhook receiver in a real browser', { timeout: 60_000 }, () => {
  let world: BrowserWorld;
  let inbox: WebhookInbox;

  beforeAll(async () => {
    inbox = await startWebhookInbox();
    world = await startBrowserWorld(
      { WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_DEMO_RECEIVER_URL: inbox.url },
      { connect: [] },
    );
  }, 120_000);

  afterAll(async () => {
    await world?.close();
    await inbox?.close();
  });

  it('adds the demo receiver, sends it a test event and shows what arrived', async () => {
    const page = await world.open('/webhooks', 'Webhooks');
    const card = page.getByRole('region', { name: 'A receiver on this machine' });
    await card.getByText(inbox.url).waitFor();
    await card.getByRole('button', { name: 'Add the demo receiver' }).click();
    const secret = (await card.locator('code.secret-value').textContent()) ?? '';
    expect(secret).not.toBe('');
    await card.getByText('It is added below: press Send test event on it.').waitFor();
    expect(await card.getByRole('button', { name: 'Add the demo receiver' }).count()).toBe(0);

    const row = page.getByRole('listitem').filter({ has: page.locator('code', { hasText: inbox.url }) });
    await row.getByRole('button', { name: 'Send test event' }).click();
    await row.getByText(/^Delivered\./).waitFor();
    const got = row.getByRole('region', { name: 'What the demo receiver got' });
    await got.getByText(/^webhook\.test, received .*, signed\./).waitFor();

    const [arrived] = inbox.arrived();
    expect(arrived?.event).toBe('webhook.test');
    expect(signatureValid(secret, { ...arrived!, method: 'POST', path: '/hooks' })).toBe(true);
    await screenshot(page, 'webhooks-demo-receiver-1366');
    expect(world.errors).toEqual([]);
  });
});

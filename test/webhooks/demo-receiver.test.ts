import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookInbox, type WebhookInbox } from '../../scripts/lib/webhook-inbox.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { signatureValid, vaultKey } from './helpers.ts';

/**
 * The receiver `npm run demo` serves (scripts/lib/webhook-inbox.ts) and how the API offers it
 * (issue 33 item 8): with WEBHOOK_ALLOW_LOOPBACK on and WEBHOOK_DEMO_RECEIVER_URL set, /v1/meta
 * names it, a test event registered to it arrives signed, and GET on it lists what arrived;
 * without the loopback setting it is not offered (it could not be reached).
 */
let inbox: WebhookInbox;
let demo: TestApp;
let plain: TestApp;

beforeAll(async () => {
  inbox = await startWebhookInbox();
  demo = await startTestApp({
    KIT_VAULT_KEY: vaultKey(),
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    WEBHOOK_DEMO_RECEIVER_URL: inbox.url,
  });
  plain = await startTestApp({ KIT_VAULT_KEY: vaultKey(), WEBHOOK_DEMO_RECEIVER_URL: inbox.url });
});
afterAll(async () => {
  await demo?.close();
  await plain?.close();
  await inbox?.close();
});

describe('the demo webhook receiver', () => {
  it('is named by /v1/meta only where loopback receivers are let in', async () => {
    expect((await demo.request('GET', '/v1/meta')).body.capabilities.webhookReceiver).toBe(inbox.url);
    expect((await plain.request('GET', '/v1/meta')).body.capabilities.webhookReceiver).toBeNull();
  });

  it('receives a signed test event and lists it, newest first, with its headers and body', async () => {
    const { apiKey } = await demo.signup();
    const created = await demo.request('POST', '/v1/webhooks', { key: apiKey, body: { url: inbox.url } });
    expect(created.status, created.text).toBe(201);
    const test = await demo.request('POST', `/v1/webhooks/${created.body.webhook.id}/test`, { key: apiKey });
    expect(test.status, test.text).toBe(200);
    expect(test.body).toMatchObject({ delivered: true, statusCode: 200 });

    const listed = await fetch(inbox.url);
    expect(listed.headers.get('access-control-allow-origin')).toBe('*');
    const { arrived } = (await listed.json()) as { arrived: ReturnType<WebhookInbox['arrived']> };
    expect(arrived).toHaveLength(1);
    const [got] = arrived;
    expect(got!.event).toBe('webhook.test');
    expect(got!.body).toBe(test.body.body);
    expect(got!.headers['x-kit-event']).toBe('webhook.test');
    expect(got!.headers['x-kit-delivery']).toBe(test.body.headers['x-kit-delivery']);
    // Only what says something about the delivery is kept.
    expect(got!.headers.host).toBeUndefined();
    expect(signatureValid(created.body.secret, { ...got!, method: 'POST', path: '/hooks' })).toBe(true);

    const page = await fetch(inbox.url.replace(/\/hooks$/, '/'));
    expect(await page.text()).toContain('webhook.test');
    // Anything else is a 404 that says what the receiver answers.
    expect((await fetch(inbox.url.replace(/\/hooks$/, '/other'))).status).toBe(404);
  });
});

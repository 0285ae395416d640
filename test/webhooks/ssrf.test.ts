import { eq } from 'drizzle-orm';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhooks } from '../../src/db/schema/index.ts';
import { deliverDue } from '../../src/features/webhooks/delivery.sweep.ts';
import { createWebhookDispatcher } from '../../src/features/webhooks/safe-dispatcher.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createWebhook, deliveries, emit, vaultKey } from './helpers.ts';
import { type Receiver, startReceiver } from './receiver.ts';

/** The production setting: WEBHOOK_ALLOW_PRIVATE=false. */
let t: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestApp({
    KIT_VAULT_KEY: vaultKey(),
    WEBHOOK_ALLOW_PRIVATE: 'false',
    WEBHOOK_TIMEOUT_MS: '2000',
  });
  receiver = await startReceiver(() => 200);
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe('registration', () => {
  it('refuses http, inward literals and local names with a 400 naming the url', async () => {
    const { apiKey } = await t.signup();
    for (const url of [
      'http://hooks.example.com/x',
      `https://127.0.0.1:${receiver.port}/x`,
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[::ffff:7f00:1]/x',
      'https://0x7f000001/x',
      'https://10.1.2.3/x',
      'https://172.20.0.1/x',
      'https://192.168.0.10/x',
      'https://169.254.169.254/latest/meta-data/',
      'https://[fd00:ec2::254]/x',
      'https://100.64.0.1/x',
      'https://224.0.0.1/x',
      'https://0.0.0.0/x',
      'https://[fe80::1]/x',
      'https://[fc00::1]/x',
      'https://localhost/x',
      'https://intranet/x',
      'https://db.internal/x',
    ]) {
      const res = await t.request('POST', '/v1/webhooks', { key: apiKey, body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.details[0].path).toBe('url');
    }
    expect((await t.request('GET', '/v1/webhooks', { key: apiKey })).body.webhooks).toEqual([]);
  });
});

describe('connect time', () => {
  it('refuses loopback through the dispatcher, by literal and by a DNS name, and reaches nothing', async () => {
    const strict = createWebhookDispatcher({ allowPrivate: false, timeoutMs: 2000 });
    const lenient = createWebhookDispatcher({ allowPrivate: true, timeoutMs: 2000 });
    try {
      const before = receiver.received.length;
      for (const host of ['localhost', '127.0.0.1', '[::ffff:127.0.0.1]', '127.1', '0.0.0.0']) {
        await expect(
          request(`http://${host}:${receiver.port}/probe`, {
            method: 'POST',
            body: '{}',
            dispatcher: strict,
          }),
          host,
        ).rejects.toThrow(/loopback|unspecified/);
      }
      expect(receiver.received.length).toBe(before);
      // The same request goes through once the policy is lifted: the refusal above is the policy's.
      const ok = await request(`http://localhost:${receiver.port}/probe`, {
        method: 'POST',
        body: '{}',
        dispatcher: lenient,
      });
      await ok.body.dump();
      expect(ok.statusCode).toBe(200);
      expect(receiver.received.length).toBe(before + 1);
    } finally {
      await strict.close();
      await lenient.close();
    }
  });

  it('refuses a delivery whose registered name now resolves to loopback (DNS changed after registration)', async () => {
    const { apiKey, accountId } = await t.signup();
    const { webhook } = await createWebhook(t, apiKey, 'https://hooks.example.com/postkit');
    // Simulate the DNS answer changing: the endpoint's host now points at this machine.
    await t.service.deps.db
      .update(webhooks)
      .set({ url: `https://localhost:${receiver.port}/postkit` })
      .where(eq(webhooks.id, webhook.id));
    const before = receiver.received.length;
    await emit(t, accountId);
    await deliverDue(t.service.deps);
    const [d] = (await deliveries(t, apiKey, webhook.id)).deliveries;
    expect(d).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: null });
    expect(d!.lastError).toMatch(/^Refused: localhost resolves to .*loopback address/);
    expect(receiver.received.length).toBe(before);
  });

  it('refuses metadata and private literals stored on an endpoint', async () => {
    const { apiKey, accountId } = await t.signup();
    const targets = [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
      'http://[::ffff:169.254.169.254]/',
      'http://10.0.0.1/',
      'http://100.64.0.1/',
    ];
    const ids: string[] = [];
    for (const url of targets) {
      const { webhook } = await createWebhook(t, apiKey, 'https://hooks.example.com/x');
      await t.service.deps.db.update(webhooks).set({ url }).where(eq(webhooks.id, webhook.id));
      ids.push(webhook.id);
    }
    await emit(t, accountId);
    await deliverDue(t.service.deps);
    for (const [i, id] of ids.entries()) {
      const [d] = (await deliveries(t, apiKey, id)).deliveries;
      expect(d!.status, targets[i]).toBe('failed');
      expect(d!.lastError, targets[i]).toMatch(/^Refused: .*(metadata|private|cgnat) address/);
    }
  });
});

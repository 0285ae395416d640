import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../../src/features/webhooks/delivery.sweep.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { until } from '../helpers/until.ts';
import { emit, signatureValid, vaultKey } from './helpers.ts';
import { type Receiver, startReceiver } from './receiver.ts';

/**
 * WEBHOOK_ALLOW_LOOPBACK, through the API and a real receiver on this machine: on, http:// and
 * https:// receivers on localhost and 127.0.0.1 are registered and reached (test event and
 * real deliveries) while every other inward address stays refused; off (the default), a
 * loopback receiver is refused like any other.
 */
let on: TestApp;
let off: TestApp;
let receiver: Receiver;
let keyOn: string;
let accountOn: string;
let keyOff: string;

beforeAll(async () => {
  receiver = await startReceiver(() => 200);
  on = await startTestApp({ KIT_VAULT_KEY: vaultKey(), WEBHOOK_ALLOW_LOOPBACK: 'true' });
  off = await startTestApp({ KIT_VAULT_KEY: vaultKey() });
  ({ apiKey: keyOn, accountId: accountOn } = await on.signup());
  ({ apiKey: keyOff } = await off.signup());
});
afterAll(async () => {
  await on?.close();
  await off?.close();
  await receiver?.close();
});

const register = (t: TestApp, key: string, url: string) =>
  t.request('POST', '/v1/webhooks', { key, body: { url } });

describe('WEBHOOK_ALLOW_LOOPBACK=true', () => {
  it('registers http://127.0.0.1 and http://localhost receivers and reaches them, signed', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const url = `http://${host}:${receiver.port}/hooks/${host}`;
      const created = await register(on, keyOn, url);
      expect(created.status, created.text).toBe(201);
      const before = receiver.received.length;
      const test = await on.request('POST', `/v1/webhooks/${created.body.webhook.id}/test`, { key: keyOn });
      expect(test.status, test.text).toBe(200);
      expect(test.body).toMatchObject({ delivered: true, statusCode: 200, error: null });
      const got = receiver.received[before]!;
      expect(got.path).toBe(`/hooks/${host}`);
      expect(signatureValid(created.body.secret, got)).toBe(true);
    }
  });

  it('sends real events to them through the delivery sweep', async () => {
    const before = receiver.received.length;
    await emit(on, accountOn, 'post.published');
    await until('both loopback receivers got the event', async () => {
      await deliverDue(on.service.deps);
      return receiver.received.length >= before + 2;
    });
    expect(
      receiver.received
        .slice(before)
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/hooks/127.0.0.1', '/hooks/localhost']);
  });

  it('still refuses every other inward address, and plain http:// to any other host', async () => {
    for (const url of [
      'http://10.0.0.1/hook',
      'http://hooks.example.com/hook',
      'https://10.0.0.1/hook',
      'https://192.168.1.20/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00::1]/hook',
      'https://printer.local/hook',
    ]) {
      const res = await register(on, keyOn, url);
      expect(res.status, url).toBe(400);
      expect(res.body.error.details?.[0]?.path, url).toBe('url');
    }
    const listed = await on.request('GET', '/v1/webhooks', { key: keyOn });
    expect(listed.body.webhooks).toHaveLength(2);
  });
});

describe('by default', () => {
  it('refuses loopback receivers, http:// or https://', async () => {
    for (const url of [
      `http://127.0.0.1:${receiver.port}/hook`,
      `http://localhost:${receiver.port}/hook`,
      `https://127.0.0.1:${receiver.port}/hook`,
      `https://localhost:${receiver.port}/hook`,
    ]) {
      const res = await register(off, keyOff, url);
      expect(res.status, url).toBe(400);
    }
    expect((await off.request('GET', '/v1/webhooks', { key: keyOff })).body.webhooks).toEqual([]);
  });
});

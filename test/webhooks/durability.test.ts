import { describe, expect, it } from 'vitest';
import { deliverDue } from '../../src/features/webhooks/delivery.sweep.ts';
import { claimDueDeliveries } from '../../src/features/webhooks/delivery-claim.ts';
import { WEBHOOK_RETRY } from '../../src/jobs/schedules.ts';
import { startTestApp } from '../helpers/app.ts';
import {
  createWebhook,
  deliveries,
  durableDatabase,
  emit,
  manualClock,
  signatureValid,
  vaultKey,
} from './helpers.ts';
import { startReceiver } from './receiver.ts';

describe('a process that dies between the state change and the delivery', () => {
  it('loses nothing: the next process delivers the recorded event', async () => {
    const database = await durableDatabase();
    const receiver = await startReceiver(() => 200);
    const env = { ...database.env, KIT_VAULT_KEY: vaultKey(), WEBHOOK_ALLOW_PRIVATE: 'true' };
    try {
      const first = await startTestApp(env);
      const { apiKey, accountId } = await first.signup();
      const { webhook, secret } = await createWebhook(first, apiKey, `${receiver.url}/survivor`);
      const event = await emit(first, accountId, 'channel.disconnected', {
        channel: { id: 'chn_1', status: 'revoked' },
      });
      // The process goes away before any sweep ran.
      await first.close();
      expect(receiver.received).toHaveLength(0);

      const second = await startTestApp(env);
      try {
        expect((await deliveries(second, apiKey, webhook.id)).deliveries[0]!.status).toBe('pending');
        await deliverDue(second.service.deps);
        const [got] = await receiver.waitFor(1);
        expect(signatureValid(secret, got!)).toBe(true);
        expect(JSON.parse(got!.body)).toMatchObject({
          id: event.id,
          type: 'channel.disconnected',
          data: { channel: { id: 'chn_1' } },
        });
        expect((await deliveries(second, apiKey, webhook.id)).deliveries[0]!.status).toBe('delivered');
      } finally {
        await second.close();
      }
    } finally {
      await receiver.close();
      await database.drop();
    }
  }, 90_000);

  it('re-claims a delivery whose sender died mid-attempt once its lease lapses', async () => {
    const database = await durableDatabase();
    const receiver = await startReceiver(() => 200);
    const env = {
      ...database.env,
      KIT_VAULT_KEY: vaultKey(),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_TIMEOUT_MS: '1000',
    };
    try {
      const first = await startTestApp(env);
      const { apiKey, accountId } = await first.signup();
      const { webhook } = await createWebhook(first, apiKey, `${receiver.url}/lease`);
      await emit(first, accountId);
      // The sender claims the delivery, then dies before recording any attempt.
      const claimed = await claimDueDeliveries(first.service.deps, 10);
      expect(claimed).toHaveLength(1);
      await first.close();

      const clock = manualClock();
      const second = await startTestApp(env, { clock });
      try {
        const [held] = (await deliveries(second, apiKey, webhook.id)).deliveries;
        expect(held!.status).toBe('sending');
        // While the lease holds, nobody else sends it.
        expect(await deliverDue(second.service.deps)).toBe(0);
        expect(receiver.received).toHaveLength(0);
        clock.set(claimed[0]!.leaseUntil! + 1);
        expect(await deliverDue(second.service.deps)).toBe(1);
        await receiver.waitFor(1);
        expect((await deliveries(second, apiKey, webhook.id)).deliveries[0]).toMatchObject({
          status: 'delivered',
          attempts: 1,
        });
      } finally {
        await second.close();
      }
    } finally {
      await receiver.close();
      await database.drop();
    }
  }, 90_000);
});

describe('the retry schedule', () => {
  it('follows +0s, 30s, 2m, 10m, 30m, 1h, 3h, 6h, 12h, 24h and is dead after the tenth attempt', async () => {
    const clock = manualClock();
    const t = await startTestApp({ KIT_VAULT_KEY: vaultKey(), WEBHOOK_ALLOW_PRIVATE: 'true' }, { clock });
    const failing = await startReceiver(() => 500);
    try {
      const { apiKey, accountId } = await t.signup();
      const { webhook, secret } = await createWebhook(t, apiKey, `${failing.url}/down`);
      const event = await emit(t, accountId);
      const gaps: number[] = [];
      let d = (await deliveries(t, apiKey, webhook.id)).deliveries[0]!;
      expect(d.nextAttemptAt).toBe(event.createdAt);
      for (let attempt = 1; attempt <= 10; attempt++) {
        // Not a moment early.
        clock.set(d.nextAttemptAt! - 1);
        expect(await deliverDue(t.service.deps)).toBe(0);
        clock.set(d.nextAttemptAt!);
        expect(await deliverDue(t.service.deps)).toBe(1);
        await failing.waitFor(attempt);
        d = (await deliveries(t, apiKey, webhook.id)).deliveries[0]!;
        expect(d.attempts).toBe(attempt);
        expect(d.lastStatusCode).toBe(500);
        if (attempt < 10) {
          expect(d.status).toBe('failed');
          gaps.push(d.nextAttemptAt! - d.updatedAt);
        }
      }
      expect(gaps).toEqual(WEBHOOK_RETRY.delaysMs.slice(1));
      expect(gaps).toEqual([30, 120, 600, 1800, 3600, 10800, 21600, 43200, 86400].map((s) => s * 1000));
      expect(d).toMatchObject({ status: 'dead', attempts: 10, nextAttemptAt: null });
      expect(d.lastError).toMatch(/500/);

      clock.advance(365 * 24 * 3600 * 1000);
      expect(await deliverDue(t.service.deps)).toBe(0);
      expect(failing.received).toHaveLength(10);
      for (const r of failing.received) expect(signatureValid(secret, r)).toBe(true);
      // Each attempt carries its own timestamp, taken from the service clock.
      expect(failing.received.map((r) => Number(r.headers['x-kit-timestamp']))).toEqual(
        [...failing.received.keys()].map((i) =>
          Math.floor(
            (event.createdAt + WEBHOOK_RETRY.delaysMs.slice(0, i + 1).reduce((a: number, b) => a + b, 0)) /
              1000,
          ),
        ),
      );
    } finally {
      await t.close();
      await failing.close();
    }
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliverySweep } from '../../src/features/webhooks/delivery.sweep.ts';
import { startRunner } from '../../src/jobs/runner.ts';
import { SweepName } from '../../src/wake/sweep-names.ts';
import { SERVERS } from '../hardening/process-world.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { killAll, type ServiceProcess, spawnService } from '../helpers/processes.ts';
import { until } from '../helpers/until.ts';
import { createWebhook, emit, vaultKey } from './helpers.ts';
import { type Receiver, startReceiver } from './receiver.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The delivery sweep polls (WEBHOOK_POLL_MS) only while wakes from other processes cannot reach
 * its process. The runner below is started without the app's wake hub, so an event written
 * through the app cannot wake it, as if another process had written it; `across` stands for the
 * wake relay's state (wake-relay.ts `listening`).
 */
describe('webhook sweep polling', () => {
  it('polls while wakes from other processes cannot arrive, and only then', async () => {
    const t = await startTestApp({
      KIT_VAULT_KEY: vaultKey(),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      SWEEP_INTERVAL_MS: '3600000',
      WEBHOOK_POLL_MS: '100',
    });
    const receiver = await startReceiver(() => 200);
    const across = { listening: false };
    const runner = startRunner(t.service.deps, [webhookDeliverySweep], { acrossProcesses: across });
    try {
      const { apiKey, accountId } = await t.signup();
      await createWebhook(t, apiKey, `${receiver.url}/poll`);
      // Nothing wakes this runner and its period is an hour: only the poll can find the event.
      await emit(t, accountId);
      await until('the polled delivery', () => receiver.received.length === 1, 5_000);

      // Wakes arrive now: after its next poll the sweep sleeps until a wake or a due retry.
      across.listening = true;
      await sleep(500);
      await emit(t, accountId);
      await sleep(1_500);
      expect(receiver.received).toHaveLength(1);
      // The relay's wake for that event (an `api` process's commit) sends it.
      runner.wake(SweepName.webhooks);
      await until('the woken delivery', () => receiver.received.length === 2, 5_000);
    } finally {
      await runner.stop();
      await t.close();
      await receiver.close();
    }
  });
});

/** Poll and period far beyond the waits below: only a wake can deliver within them. */
const WORKER_POLL_MS = 60_000;
/** A delivery later than this after its event was not woken. */
const WITHIN_MS = 3_000;
/** Waiting stops here, long before the worker's poll would find the event. */
const GIVE_UP_MS = 15_000;

/**
 * An event recorded by an `api` process (which runs no sweeps) and delivered by a separate
 * worker process (a real `src/main.ts` child) on the same PostgreSQL: the commit's wake travels
 * as a NOTIFY (src/wake/wake-relay.ts), so the worker sends it at once although it would look by
 * itself only every minute.
 */
describe.runIf(SERVERS)('webhook wakes across processes (PostgreSQL LISTEN/NOTIFY)', () => {
  let api: TestApp;
  let worker: ServiceProcess;
  let receiver: Receiver;
  let dataDir: string;

  beforeAll(async () => {
    const key = vaultKey();
    dataDir = mkdtempSync(join(tmpdir(), 'postkit-webhook-wake-'));
    api = await startTestApp({ KIT_ROLE: 'api', KIT_VAULT_KEY: key, WEBHOOK_ALLOW_PRIVATE: 'true' });
    receiver = await startReceiver(() => 200);
    worker = await spawnService('worker', {
      DATABASE_URL: api.config.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      KIT_VAULT_KEY: key,
      DATA_DIR: dataDir,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      SWEEP_INTERVAL_MS: String(10 * WORKER_POLL_MS),
      WEBHOOK_POLL_MS: String(WORKER_POLL_MS),
      LOG_LEVEL: 'info',
    });
    // Its LISTEN connection is proven (its own probe came back); that runs every sweep once, and
    // from then on the worker does not poll. Let that catch-up pass finish with nothing due.
    await until('the worker to hear wakes', () =>
      worker.output().includes('wakes from other processes arrive'),
    );
    await sleep(500);
  }, 120_000);
  afterAll(async () => {
    await killAll();
    await api?.close();
    await receiver?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers an event recorded by the API process within seconds, not at the next poll', async () => {
    const { apiKey, accountId } = await api.signup();
    await createWebhook(api, apiKey, `${receiver.url}/across`);
    expect(receiver.received).toHaveLength(0);
    const written = Date.now();
    await emit(api, accountId);
    const [got] = await until(
      'the delivery from the worker',
      () => receiver.received.length >= 1 && receiver.received,
      GIVE_UP_MS,
    );
    expect(got!.headers['x-kit-event']).toBe('post.published');
    expect(got!.receivedAt - written).toBeLessThan(WITHIN_MS);
  }, 60_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS } from '../../src/domain/enums.ts';
import { deliverDue } from '../../src/features/webhooks/delivery.sweep.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { until } from '../helpers/until.ts';
import { createWebhook, deliveries, emit, signatureValid, vaultKey } from './helpers.ts';
import { type Receiver, startReceiver } from './receiver.ts';

let t: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestApp({
    KIT_VAULT_KEY: vaultKey(),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_BACKOFF_SCALE: '0.001',
    WEBHOOK_TIMEOUT_MS: '1000',
  });
  receiver = await startReceiver((req) => (req.path.startsWith('/fail') ? 500 : 200));
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const WEBHOOK_KEYS = ['accountId', 'createdAt', 'events', 'id', 'status', 'updatedAt', 'url'];
const DELIVERY_KEYS = [
  'attempts',
  'createdAt',
  'event',
  'id',
  'lastError',
  'lastStatusCode',
  'nextAttemptAt',
  'status',
  'updatedAt',
  'webhookId',
];

describe('/v1/webhooks', () => {
  it('creates an endpoint, shows the secret once, lists, gets and deletes it', async () => {
    const { apiKey, accountId } = await t.signup();
    const created = await t.request('POST', '/v1/webhooks', {
      key: apiKey,
      body: { url: `${receiver.url}/crud` },
    });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_[\w-]{43}$/);
    const { webhook } = created.body;
    expect(Object.keys(webhook).sort()).toEqual(WEBHOOK_KEYS);
    expect(webhook).toMatchObject({
      accountId,
      url: `${receiver.url}/crud`,
      events: [...WEBHOOK_EVENTS],
      status: 'active',
    });
    expect(webhook.id).toMatch(/^whk_/);

    const narrow = await createWebhook(t, apiKey, `${receiver.url}/narrow`, ['post.failed', 'post.failed']);
    expect(narrow.webhook.events).toEqual(['post.failed']);

    const list = await t.request('GET', '/v1/webhooks', { key: apiKey });
    expect(list.status).toBe(200);
    expect(list.body.events).toEqual([
      'post.published',
      'post.failed',
      'post.scored',
      'channel.disconnected',
      'post.approval_requested',
      'post.approved',
      'post.changes_requested',
    ]);
    expect(list.body.webhooks.map((w: { id: string }) => w.id)).toEqual([narrow.webhook.id, webhook.id]);
    expect(list.text).not.toContain(created.body.secret);
    expect(list.text).not.toContain('secret');

    const got = await t.request('GET', `/v1/webhooks/${webhook.id}`, { key: apiKey });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ webhook });

    // The secret is kept sealed, never in the clear.
    const stored = await t.service.deps.database.db.query.webhooks.findFirst({
      where: (w, { eq }) => eq(w.id, webhook.id),
    });
    expect(stored!.secretSealed).not.toContain(created.body.secret);

    const removed = await t.request('DELETE', `/v1/webhooks/${webhook.id}`, { key: apiKey });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ deleted: true });
    expect((await t.request('GET', `/v1/webhooks/${webhook.id}`, { key: apiKey })).status).toBe(404);
    expect((await t.request('DELETE', `/v1/webhooks/${webhook.id}`, { key: apiKey })).status).toBe(404);
  });

  it('rejects bad bodies with a clear 400', async () => {
    const { apiKey } = await t.signup();
    const cases: [unknown, RegExp][] = [
      [{}, /url/],
      [{ url: 'nope' }, /absolute URL/],
      [{ url: 'ftp://127.0.0.1/x' }, /https/],
      [{ url: `${receiver.url}/x`, events: [] }, /events/],
      [{ url: `${receiver.url}/x`, events: ['post.deleted'] }, /events/],
      [{ url: `${receiver.url}/x`, extra: true }, /extra|Unrecognized/i],
    ];
    for (const [body, message] of cases) {
      const res = await t.request('POST', '/v1/webhooks', { key: apiKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(JSON.stringify(res.body.error)).toMatch(message);
    }
  });

  it('answers 404 for another account’s endpoint on every route', async () => {
    const owner = await t.signup();
    const other = await t.signup();
    const { webhook } = await createWebhook(t, owner.apiKey, `${receiver.url}/mine`);
    for (const [method, path] of [
      ['GET', `/v1/webhooks/${webhook.id}`],
      ['DELETE', `/v1/webhooks/${webhook.id}`],
      ['GET', `/v1/webhooks/${webhook.id}/deliveries`],
    ] as const) {
      const res = await t.request(method, path, { key: other.apiKey });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await t.request('GET', '/v1/webhooks', { key: other.apiKey })).body.webhooks).toEqual([]);
    expect((await t.request('GET', `/v1/webhooks/${webhook.id}`, { key: owner.apiKey })).status).toBe(200);
    // Another account's events never reach this endpoint.
    await emit(t, other.accountId);
    expect((await deliveries(t, owner.apiKey, webhook.id)).deliveries).toEqual([]);
  });

  it('requires a key', async () => {
    expect((await t.request('GET', '/v1/webhooks')).status).toBe(401);
    expect((await t.request('POST', '/v1/webhooks', { body: { url: 'https://example.com/x' } })).status).toBe(
      401,
    );
  });
});

describe('deliveries', () => {
  it('delivers a signed event that an independent HMAC check accepts', async () => {
    const { apiKey, accountId } = await t.signup();
    const { webhook, secret } = await createWebhook(t, apiKey, `${receiver.url}/signed`);
    const before = receiver.received.length;
    const post = {
      id: 'pst_signed',
      text: 'Launch day',
      status: 'published',
      publishedAt: 1_700_000_000_000,
    };
    const event = await emit(t, accountId, 'post.published', { post });
    expect(event.deliveries).toBe(1);

    const queued = await deliveries(t, apiKey, webhook.id);
    expect(queued.deliveries).toHaveLength(1);
    expect(queued.deliveries[0]).toMatchObject({ status: 'pending', attempts: 0, lastStatusCode: null });

    await deliverDue(t.service.deps);
    const [got] = (await receiver.waitFor(before + 1)).slice(before);
    expect(got!.method).toBe('POST');
    expect(got!.path).toBe('/signed');
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['x-kit-event']).toBe('post.published');
    expect(got!.headers['x-kit-delivery']).toBe(queued.deliveries[0]!.id);
    expect(signatureValid(secret, got!)).toBe(true);
    expect(signatureValid(`${secret}x`, got!)).toBe(false);
    expect(signatureValid(secret, { ...got!, body: got!.body.replace('Launch', 'Lunch') })).toBe(false);
    const timestamp = Number(got!.headers['x-kit-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(300);
    expect(JSON.parse(got!.body)).toEqual({
      id: event.id,
      type: 'post.published',
      createdAt: event.createdAt,
      data: { post },
    });

    const after = await deliveries(t, apiKey, webhook.id);
    expect(Object.keys(after.deliveries[0]!).sort()).toEqual(DELIVERY_KEYS);
    expect(after.deliveries[0]).toMatchObject({
      webhookId: webhook.id,
      event: 'post.published',
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    // Nothing is sent twice.
    await deliverDue(t.service.deps);
    expect(receiver.received.length).toBe(before + 1);
  });

  it('fans out only to subscribed, active endpoints of the account', async () => {
    const { apiKey, accountId } = await t.signup();
    const all = await createWebhook(t, apiKey, `${receiver.url}/all`);
    const scored = await createWebhook(t, apiKey, `${receiver.url}/scored`, ['post.scored']);
    const published = await emit(t, accountId, 'post.published');
    expect(published.deliveries).toBe(1);
    const score = await emit(t, accountId, 'post.scored', { post: { id: 'pst_1' }, score: { score: 71 } });
    expect(score.deliveries).toBe(2);
    expect((await deliveries(t, apiKey, all.webhook.id)).deliveries.map((d) => d.event)).toEqual([
      'post.scored',
      'post.published',
    ]);
    expect((await deliveries(t, apiKey, scored.webhook.id)).deliveries.map((d) => d.event)).toEqual([
      'post.scored',
    ]);
  });

  it('records nothing for a rolled-back change', async () => {
    const { apiKey, accountId } = await t.signup();
    const { webhook } = await createWebhook(t, apiKey, `${receiver.url}/rollback`);
    const { db } = t.service.deps;
    const { recordEvent } = await import('../../src/features/events/events.service.ts');
    await expect(
      db.transaction(async (tx) => {
        await recordEvent(tx, {
          accountId,
          type: 'post.failed',
          data: { post: { id: 'x' } },
          now: Date.now(),
        });
        throw new Error('state change failed');
      }),
    ).rejects.toThrow('state change failed');
    expect((await deliveries(t, apiKey, webhook.id)).deliveries).toEqual([]);
  });

  it('retries a failing receiver on the schedule and records every attempt', async () => {
    const { apiKey, accountId } = await t.signup();
    let calls = 0;
    const flaky = await startReceiver(() => (++calls <= 2 ? 503 : 204));
    try {
      const { webhook, secret } = await createWebhook(t, apiKey, `${flaky.url}/flaky`);
      await emit(t, accountId, 'post.failed', { post: { id: 'pst_flaky', error: 'rejected' } });
      await deliverDue(t.service.deps);
      await flaky.waitFor(1);
      const first = (await deliveries(t, apiKey, webhook.id)).deliveries[0]!;
      expect(first).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 503 });
      expect(first.lastError).toMatch(/503/);
      // Second attempt 30 s after the first, scaled by 0.001.
      expect(first.nextAttemptAt! - first.updatedAt).toBe(30);

      await until('the second attempt', async () => {
        await deliverDue(t.service.deps);
        return (await deliveries(t, apiKey, webhook.id)).deliveries[0]!.attempts >= 2;
      });
      const second = (await deliveries(t, apiKey, webhook.id)).deliveries[0]!;
      expect(second).toMatchObject({ status: 'failed', attempts: 2, lastStatusCode: 503 });
      expect(second.nextAttemptAt! - second.updatedAt).toBe(120);

      await until('the delivery to succeed', async () => {
        await deliverDue(t.service.deps);
        return (await deliveries(t, apiKey, webhook.id)).deliveries[0]!.status === 'delivered';
      });
      const done = (await deliveries(t, apiKey, webhook.id)).deliveries[0]!;
      expect(done).toMatchObject({
        status: 'delivered',
        attempts: 3,
        lastStatusCode: 204,
        lastError: null,
        nextAttemptAt: null,
      });
      expect(flaky.received).toHaveLength(3);
      // Each attempt is signed afresh and verifies; all carry the same delivery id and body.
      for (const r of flaky.received) expect(signatureValid(secret, r)).toBe(true);
      expect(new Set(flaky.received.map((r) => r.headers['x-kit-delivery'])).size).toBe(1);
      expect(new Set(flaky.received.map((r) => r.body)).size).toBe(1);
    } finally {
      await flaky.close();
    }
  });

  it('does not follow redirects', async () => {
    const { apiKey, accountId } = await t.signup();
    const target = await startReceiver(() => 200);
    const redirecting = await startReceiver((_req, _i, res) => {
      res.writeHead(307, { location: `${target.url}/stolen` }).end();
      return 'handled';
    });
    try {
      const { webhook } = await createWebhook(t, apiKey, `${redirecting.url}/moved`);
      await emit(t, accountId);
      await deliverDue(t.service.deps);
      await redirecting.waitFor(1);
      const [d] = (await deliveries(t, apiKey, webhook.id)).deliveries;
      expect(d).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 307 });
      expect(d!.lastError).toMatch(/redirects are not followed/);
      expect(target.received).toHaveLength(0);
    } finally {
      await target.close();
      await redirecting.close();
    }
  });

  it('gives up on a receiver that does not answer within WEBHOOK_TIMEOUT_MS', async () => {
    const { apiKey, accountId } = await t.signup();
    const slow = await startReceiver(async () => {
      await new Promise((r) => setTimeout(r, 3_000));
      return 200;
    });
    try {
      const { webhook } = await createWebhook(t, apiKey, `${slow.url}/slow`);
      await emit(t, accountId);
      await deliverDue(t.service.deps);
      const [d] = (await deliveries(t, apiKey, webhook.id)).deliveries;
      expect(d).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: null });
      expect(d!.lastError).toMatch(/No response within 1000 ms/);
    } finally {
      await slow.close();
    }
  });

  it('disables the endpoint on 410 Gone and gives up its queue', async () => {
    const { apiKey, accountId } = await t.signup();
    const gone = await startReceiver(() => 410);
    try {
      const { webhook } = await createWebhook(t, apiKey, `${gone.url}/gone`);
      const other = await createWebhook(t, apiKey, `${receiver.url}/still-here`);
      await emit(t, accountId);
      await deliverDue(t.service.deps);
      await gone.waitFor(1);
      const got = await t.request('GET', `/v1/webhooks/${webhook.id}`, { key: apiKey });
      expect(got.body.webhook.status).toBe('disabled');
      const [d] = (await deliveries(t, apiKey, webhook.id)).deliveries;
      expect(d).toMatchObject({ status: 'dead', attempts: 1, lastStatusCode: 410, nextAttemptAt: null });
      expect(d!.lastError).toMatch(/410/);

      // New events no longer fan out to the disabled endpoint; the other endpoint is unaffected.
      const next = await emit(t, accountId);
      expect(next.deliveries).toBe(1);
      await deliverDue(t.service.deps);
      expect(gone.received).toHaveLength(1);
      expect((await deliveries(t, apiKey, other.webhook.id)).deliveries.map((x) => x.status)).toEqual([
        'delivered',
        'delivered',
      ]);
    } finally {
      await gone.close();
    }
  });

  it('turns deliveries queued for an endpoint that gets disabled dead without sending them', async () => {
    // Its own app: `deliverDue(…, 1)` below must claim this test's delivery, not a retry that
    // an earlier test's failing endpoint left due in the shared database.
    const own = await startTestApp({
      KIT_VAULT_KEY: vaultKey(),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_BACKOFF_SCALE: '0.001',
      WEBHOOK_TIMEOUT_MS: '1000',
    });
    const { apiKey, accountId } = await own.signup();
    let gate: () => void = () => {};
    const opened = new Promise<void>((r) => {
      gate = r;
    });
    const gone = await startReceiver(async (_req, index) => {
      if (index === 0) await opened;
      return 410;
    });
    try {
      const { webhook } = await createWebhook(own, apiKey, `${gone.url}/gone-queue`);
      await emit(own, accountId);
      const sending = deliverDue(own.service.deps, 1);
      await gone.waitFor(1);
      // A second event is queued while the first attempt is in flight.
      await emit(own, accountId);
      gate();
      await sending;
      await deliverDue(own.service.deps);
      // Both events may share a millisecond, so the list order between them is not asserted.
      const list = (await deliveries(own, apiKey, webhook.id)).deliveries.sort(
        (a, b) => a.attempts - b.attempts,
      );
      expect(list.map((d) => [d.status, d.attempts])).toEqual([
        ['dead', 0],
        ['dead', 1],
      ]);
      expect(list[0]!.lastError).toMatch(/disabled/);
      expect(gone.received).toHaveLength(1);
    } finally {
      await gone.close();
      await own.close();
    }
  });

  it('pages deliveries newest first', async () => {
    const { apiKey, accountId } = await t.signup();
    const { webhook } = await createWebhook(t, apiKey, `${receiver.url}/paged`);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await emit(t, accountId)).id);
    const all = await deliveries(t, apiKey, webhook.id);
    expect(all.deliveries).toHaveLength(5);
    expect(all.pagination).toEqual({ limit: 50, offset: 0, hasMore: false });
    const createdAt = all.deliveries.map((d) => d.createdAt);
    expect([...createdAt].sort((a, b) => b - a)).toEqual(createdAt);
    const page1 = await deliveries(t, apiKey, webhook.id, '?limit=2');
    expect(page1.pagination).toEqual({ limit: 2, offset: 0, hasMore: true });
    const page3 = await deliveries(t, apiKey, webhook.id, '?limit=2&offset=4');
    expect(page3.pagination.hasMore).toBe(false);
    expect(
      [
        ...page1.deliveries,
        ...(await deliveries(t, apiKey, webhook.id, '?limit=2&offset=2')).deliveries,
        ...page3.deliveries,
      ].map((d) => d.id),
    ).toEqual(all.deliveries.map((d) => d.id));
    for (const q of ['?limit=0', '?limit=101', '?offset=-1', '?limit=abc']) {
      const res = await t.request('GET', `/v1/webhooks/${webhook.id}/deliveries${q}`, { key: apiKey });
      expect(res.status, q).toBe(400);
    }
  });

  it('sends each delivery once when several sweeps run at the same time', async () => {
    const { apiKey, accountId } = await t.signup();
    const counting = await startReceiver(() => 200);
    try {
      const { webhook } = await createWebhook(t, apiKey, `${counting.url}/concurrent`);
      for (let i = 0; i < 30; i++) await emit(t, accountId);
      // Other tests' retries share this database, so count at the receiver, not by claims.
      const pending = async () =>
        (await deliveries(t, apiKey, webhook.id, '?limit=100')).deliveries.filter(
          (d) => d.status !== 'delivered',
        );
      await until('every delivery to succeed', async () => {
        await Promise.all([1, 2, 3, 4].map(() => deliverDue(t.service.deps, 10)));
        return (await pending()).length === 0;
      });
      expect(new Set(counting.received.map((r) => r.headers['x-kit-delivery'])).size).toBe(30);
      expect(counting.received).toHaveLength(30);
      const statuses = (await deliveries(t, apiKey, webhook.id, '?limit=100')).deliveries.map(
        (d) => d.status,
      );
      expect(statuses).toEqual(Array(30).fill('delivered'));
    } finally {
      await counting.close();
    }
  });
});

describe('without a vault key', () => {
  it('answers 503 not_configured for creating webhooks and still lists them', async () => {
    const bare = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    try {
      const { apiKey } = await bare.signup();
      const res = await bare.request('POST', '/v1/webhooks', {
        key: apiKey,
        body: { url: 'https://example.com/x' },
      });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('not_configured');
      expect(res.body.error.message).toMatch(/KIT_VAULT_KEY/);
      const list = await bare.request('GET', '/v1/webhooks', { key: apiKey });
      expect(list.status).toBe(200);
      expect(list.body.webhooks).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});

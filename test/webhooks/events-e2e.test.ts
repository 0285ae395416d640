import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../../src/features/webhooks/delivery.sweep.ts';
import { startTestApp } from '../helpers/app.ts';
import { until } from '../helpers/until.ts';
import { createPost, type Member, type PostWorld, startPostWorld } from '../posts/world.ts';
import { createWebhook, emit, signatureValid, vaultKey } from './helpers.ts';
import { type Receiver, startReceiver } from './receiver.ts';

/** The real emitters (publishing, channel disconnect) through to a real receiver. */
let w: PostWorld;
let receiver: Receiver;
let m: Member;
let secret: string;

beforeAll(async () => {
  w = await startPostWorld({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver(() => 200);
  m = await w.member();
  ({ secret } = await createWebhook(w.t, m.apiKey, `${receiver.url}/events`));
});
afterAll(async () => {
  await w?.close();
  await receiver?.close();
});

async function next(): Promise<{
  type: string;
  data: { post?: Record<string, unknown> & { error?: unknown }; channel?: Record<string, unknown> };
  raw: string;
  signed: boolean;
}> {
  const before = receiver.received.length;
  await until('a webhook delivery', async () => {
    await deliverDue(w.t.service.deps);
    return receiver.received.length > before;
  });
  const got = receiver.received[before]!;
  const body = JSON.parse(got.body);
  expect(got.headers['x-kit-event']).toBe(body.type);
  return { type: body.type, data: body.data, raw: got.body, signed: signatureValid(secret, got) };
}

describe('events from the emitters', () => {
  it('post.published carries the published post', async () => {
    const post = await createPost(w.t, m, { text: 'Shipping webhooks today', channelId: m.channelId });
    const res = await w.t.request('POST', `/v1/posts/${post.id}/publish`, { key: m.apiKey });
    expect(res.status).toBe(200);
    const event = await next();
    expect(event.signed).toBe(true);
    expect(event.type).toBe('post.published');
    expect(event.data.post).toEqual(res.body.post);
    expect(event.raw).not.toMatch(/claimedBy|createSentAt|token/i);
  });

  it('post.failed carries the failed post and its error', async () => {
    w.sandbox.platformA.faults.failNext('createPost', 422, { code: 'DUPLICATE_POST', message: 'Duplicate' });
    const post = await createPost(w.t, m, { text: 'A duplicate, it turns out', channelId: m.channelId });
    const res = await w.t.request('POST', `/v1/posts/${post.id}/publish`, { key: m.apiKey });
    expect(res.status).toBe(502);
    const event = await next();
    expect(event.type).toBe('post.failed');
    expect(event.data.post).toMatchObject({ id: post.id, status: 'failed' });
    expect(event.data.post?.error).toEqual(expect.any(String));
  });

  it('channel.disconnected carries the channel, without token material', async () => {
    const res = await w.t.request('DELETE', `/v1/channels/${m.channelId}`, { key: m.apiKey });
    expect(res.status).toBe(200);
    const event = await next();
    expect(event.type).toBe('channel.disconnected');
    expect(event.data.channel).toMatchObject({ id: m.channelId, status: 'revoked' });
    expect(event.raw).not.toMatch(/sealed|accessToken|refreshToken/);
  });
});

describe('first delivery on commit', () => {
  it('an event written in this process is sent at once, not at the next poll', async () => {
    // Sweep and poll an hour apart: without the wake on commit nothing would be sent for an hour.
    const t = await startTestApp(
      {
        KIT_VAULT_KEY: vaultKey(),
        WEBHOOK_ALLOW_PRIVATE: 'true',
        SWEEP_INTERVAL_MS: '3600000',
        WEBHOOK_POLL_MS: '3600000',
      },
      { autoStartRunner: true },
    );
    const local = await startReceiver(() => 200);
    try {
      const { apiKey, accountId } = await t.signup();
      await createWebhook(t, apiKey, `${local.url}/wake`);
      // Let the runner's first pass finish and schedule its next run an hour away.
      await new Promise((r) => setTimeout(r, 300));
      expect(local.received).toHaveLength(0);
      const written = Date.now();
      await emit(t, accountId);
      const arrived = await Promise.race([
        local.waitFor(1).then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), 5_000)),
      ]);
      expect(arrived).toBe(true);
      expect(local.received[0]!.headers['x-kit-event']).toBe('post.published');
      expect(local.received[0]!.receivedAt - written).toBeLessThan(5_000);
    } finally {
      await t.close();
      await local.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../../src/features/webhooks/delivery.sweep.ts';
import { until } from '../helpers/until.ts';
import { createPost, type Member, type PostWorld, startPostWorld } from '../posts/world.ts';
import { createWebhook } from './helpers.ts';
import { type Receiver, startReceiver } from './receiver.ts';

/** GET /v1/posts/{id}/deliveries: the deliveries of the events about one post, and only its own. */
let w: PostWorld;
let receiver: Receiver;
let alice: Member;
let bob: Member;
let url: string;

beforeAll(async () => {
  w = await startPostWorld({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver(() => 200);
  alice = await w.member();
  bob = await w.member();
  url = `${receiver.url}/alice`;
  await createWebhook(w.t, alice.apiKey, url);
});
afterAll(async () => {
  await w?.close();
  await receiver?.close();
});

async function deliverAll(count: number) {
  await until(`${count} webhook deliveries`, async () => {
    await deliverDue(w.t.service.deps);
    return receiver.received.length >= count;
  });
}

async function published(text: string) {
  const post = await createPost(w.t, alice, { text, channelId: alice.channelId });
  const res = await w.t.request('POST', `/v1/posts/${post.id}/publish`, { key: alice.apiKey });
  expect(res.status, res.text).toBe(200);
  return post.id as string;
}

describe('a post’s webhook deliveries', () => {
  it('lists the deliveries of its events, newest first, with the endpoint and how they went', async () => {
    const before = receiver.received.length;
    const id = await published('Deliveries are listed on the post they are about');
    const other = await published('Another post with its own delivery');
    await deliverAll(before + 2);
    const scored = await w.t.request('POST', `/v1/posts/${id}/score`, { key: alice.apiKey });
    expect(scored.status, scored.text).toBe(200);
    await deliverAll(before + 3);

    const res = await w.t.request('GET', `/v1/posts/${id}/deliveries`, { key: alice.apiKey });
    expect(res.status, res.text).toBe(200);
    expect(res.body.deliveries.map((d: { event: string }) => d.event)).toEqual([
      'post.scored',
      'post.published',
    ]);
    for (const d of res.body.deliveries)
      expect(d).toMatchObject({ url, status: 'delivered', attempts: 1, lastStatusCode: 200 });

    const theOther = await w.t.request('GET', `/v1/posts/${other}/deliveries`, { key: alice.apiKey });
    expect(theOther.body.deliveries.map((d: { event: string }) => d.event)).toEqual(['post.published']);
  });

  it('is empty for a post no event was sent about', async () => {
    const draft = await createPost(w.t, alice, { text: 'Still a draft', channelId: alice.channelId });
    const res = await w.t.request('GET', `/v1/posts/${draft.id}/deliveries`, { key: alice.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.deliveries).toEqual([]);
  });

  it('another account’s post, or no post, is a 404', async () => {
    const id = await published('Alice’s own post');
    const res = await w.t.request('GET', `/v1/posts/${id}/deliveries`, { key: bob.apiKey });
    expect(res.status).toBe(404);
    expect(res.text).not.toContain(alice.accountId);
    const none = await w.t.request('GET', '/v1/posts/pst_00000000000000000000/deliveries', {
      key: alice.apiKey,
    });
    expect(none.status).toBe(404);
  });
});

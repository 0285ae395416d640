import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema/index.ts';
import { transitionPost } from '../../src/features/posts/core/transitions.ts';
import { createPost, type Member, type PostWorld, startPostWorld } from '../posts/world.ts';
import { createWebhook, signatureValid } from '../webhooks/helpers.ts';
import { type Receiver, startReceiver } from '../webhooks/receiver.ts';

/**
 * The API pieces the console's pages stand on (issue 24): editing a scheduled post until its
 * publish starts, a publish replayed with its Idempotency-Key, a webhook's test event, a
 * channel saying whether it renews itself, and sandbox posts linking to the sandbox's own page.
 */
let w: PostWorld;
let alice: Member;
let mallory: Member;
let receiver: Receiver;

beforeAll(async () => {
  w = await startPostWorld({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '2000' } });
  alice = await w.member();
  mallory = await w.member();
  receiver = await startReceiver((req) => (req.path.startsWith('/refuse') ? 401 : 204));
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await w?.close();
});

const inAnHour = () => w.clock.now() + 3_600_000;

describe('PATCH /v1/posts/{id}/scheduled', () => {
  it('changes the text and first comment of a scheduled post and keeps its time', async () => {
    const runAt = inAnHour();
    const p = await createPost(w.t, alice, { text: 'First wording', channelId: alice.channelId, runAt });
    const res = await w.t.request('PATCH', `/v1/posts/${p.id}/scheduled`, {
      key: alice.apiKey,
      body: { text: 'Second wording', firstComment: 'The link: https://example.com/notes' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.post).toMatchObject({
      status: 'scheduled',
      text: 'Second wording',
      firstComment: 'The link: https://example.com/notes',
      scheduledFor: runAt,
    });
    // Publishing it sends the edited text.
    const published = await w.t.request('POST', `/v1/posts/${p.id}/publish`, { key: alice.apiKey });
    expect(published.status, published.text).toBe(200);
    expect(alice.platformPosts().find((x) => x.id === published.body.post.platformPostId)?.text).toBe(
      'Second wording',
    );
  });

  it('refuses once the publish has claimed the post (409 publish_started), and says why', async () => {
    const p = await createPost(w.t, alice, {
      text: 'Claimed soon',
      channelId: alice.channelId,
      runAt: inAnHour(),
    });
    // What the publish sweep does when the post falls due: the claim.
    const claimed = await transitionPost(w.t.service.deps.db, 'fall_due', eq(posts.id, p.id), {
      claimedBy: 'test-claim',
      claimedAt: w.clock.now(),
    });
    expect(claimed).toHaveLength(1);
    const res = await w.t.request('PATCH', `/v1/posts/${p.id}/scheduled`, {
      key: alice.apiKey,
      body: { text: 'Too late' },
    });
    expect(res.status, res.text).toBe(409);
    expect(res.body.error.code).toBe('publish_started');
    expect(res.body.error.message).toMatch(/its publish has started/);
    expect(res.body.error.post).toMatchObject({ id: p.id, status: 'publishing', text: 'Claimed soon' });
  });

  it('refuses a draft (PATCH /v1/posts/{id} edits drafts), a finished post, bad parts, and another account', async () => {
    const draft = await createPost(w.t, alice, { text: 'A draft', channelId: alice.channelId });
    const onDraft = await w.t.request('PATCH', `/v1/posts/${draft.id}/scheduled`, {
      key: alice.apiKey,
      body: { text: 'x' },
    });
    expect(onDraft.status).toBe(409);
    expect(onDraft.body.error.code).toBe('not_scheduled');
    // The contract's PATCH stays drafts only.
    const scheduled = await createPost(w.t, alice, {
      text: 'Later',
      channelId: alice.channelId,
      runAt: inAnHour(),
    });
    const contractPatch = await w.t.request('PATCH', `/v1/posts/${scheduled.id}`, {
      key: alice.apiKey,
      body: { text: 'x' },
    });
    expect(contractPatch.status).toBe(409);
    expect(contractPatch.body.error.code).toBe('not_draft');

    const tooLong = await w.t.request('PATCH', `/v1/posts/${scheduled.id}/scheduled`, {
      key: alice.apiKey,
      body: { text: 'x'.repeat(3001) },
    });
    expect(tooLong.status).toBe(400);
    const unknownField = await w.t.request('PATCH', `/v1/posts/${scheduled.id}/scheduled`, {
      key: alice.apiKey,
      body: { runAt: inAnHour() },
    });
    expect(unknownField.status).toBe(400);
    const crossAccount = await w.t.request('PATCH', `/v1/posts/${scheduled.id}/scheduled`, {
      key: mallory.apiKey,
      body: { text: 'mine now' },
    });
    expect(crossAccount.status).toBe(404);
    expect(
      (await w.t.request('GET', `/v1/posts/${scheduled.id}`, { key: alice.apiKey })).body.post.text,
    ).toBe('Later');

    const gone = await createPost(w.t, alice, { text: 'Sent already', channelId: alice.channelId });
    expect((await w.t.request('POST', `/v1/posts/${gone.id}/publish`, { key: alice.apiKey })).status).toBe(
      200,
    );
    const onPublished = await w.t.request('PATCH', `/v1/posts/${gone.id}/scheduled`, {
      key: alice.apiKey,
      body: { text: 'x' },
    });
    expect(onPublished.status).toBe(409);
    expect(onPublished.body.error.code).toBe('post_terminal');
  });
});

describe('publish with an Idempotency-Key', () => {
  it('a replay answers the first publish’s post and publishes nothing more', async () => {
    const text = `Published once ${Date.now()}`;
    const p = await createPost(w.t, alice, { text, channelId: alice.channelId });
    const headers = { 'idempotency-key': `console-test-${p.id}` };
    const first = await w.t.request('POST', `/v1/posts/${p.id}/publish`, { key: alice.apiKey, headers });
    expect(first.status, first.text).toBe(200);
    const again = await w.t.request('POST', `/v1/posts/${p.id}/publish`, { key: alice.apiKey, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body.post.platformPostId).toBe(first.body.post.platformPostId);
    expect(alice.platformPosts().filter((x) => x.text === text)).toHaveLength(1);
    // Without the key, a second publish is refused as before.
    const bare = await w.t.request('POST', `/v1/posts/${p.id}/publish`, { key: alice.apiKey });
    expect(bare.status).toBe(409);
    expect(bare.body.error.code).toBe('not_claimable');
  });
});

describe('POST /v1/webhooks/{id}/test', () => {
  it('sends one signed webhook.test delivery and answers what the receiver said', async () => {
    const { webhook, secret } = await createWebhook(w.t, alice.apiKey, `${receiver.url}/hooks`);
    const before = receiver.received.length;
    const res = await w.t.request('POST', `/v1/webhooks/${webhook.id}/test`, { key: alice.apiKey });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ delivered: true, statusCode: 204, error: null });
    expect(receiver.received).toHaveLength(before + 1);
    const got = receiver.received.at(-1)!;
    expect(signatureValid(secret, got)).toBe(true);
    expect(got.body).toBe(res.body.body);
    expect(JSON.parse(got.body)).toMatchObject({ type: 'webhook.test', data: { webhookId: webhook.id } });
    expect(got.headers['x-kit-signature']).toBe(res.body.headers['x-kit-signature']);
    expect(res.body.signedPayload).toBe(`${got.headers['x-kit-timestamp']}.${got.body}`);
    // A test is not one of the endpoint's deliveries.
    const listed = await w.t.request('GET', `/v1/webhooks/${webhook.id}/deliveries`, { key: alice.apiKey });
    expect(listed.body.deliveries).toEqual([]);
  });

  it('reports a refusal in words, and another account’s endpoint is 404', async () => {
    const { webhook } = await createWebhook(w.t, alice.apiKey, `${receiver.url}/refuse`);
    const res = await w.t.request('POST', `/v1/webhooks/${webhook.id}/test`, { key: alice.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ delivered: false, statusCode: 401, error: 'Receiver answered 401.' });
    const before = receiver.received.length;
    const other = await w.t.request('POST', `/v1/webhooks/${webhook.id}/test`, { key: mallory.apiKey });
    expect(other.status).toBe(404);
    expect(receiver.received).toHaveLength(before);
  });
});

describe('what the console shows about channels and published posts', () => {
  it('a channel with a refresh token says it renews itself', async () => {
    const res = await w.t.request('GET', `/v1/channels/${alice.channelId}`, { key: alice.apiKey });
    expect(res.body.channel.renews).toBe(true);
  });

  it('a sandbox post links to the sandbox’s own page for it, which shows the post', async () => {
    const text = `Sandbox page ${Date.now()}`;
    const p = await createPost(w.t, alice, {
      text,
      channelId: alice.channelId,
      firstComment: 'A first comment',
    });
    const res = await w.t.request('POST', `/v1/posts/${p.id}/publish`, { key: alice.apiKey });
    expect(res.status, res.text).toBe(200);
    const url: string = res.body.post.platformUrl;
    expect(url.startsWith(`${w.sandbox.url}/_sandbox/platformA/posts/`)).toBe(true);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(text);
    expect(html).toContain('A first comment');
    const missing = await fetch(`${w.sandbox.url}/_sandbox/platformA/posts/urn%3Ali%3Ashare%3A0`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('The sandbox has no platformA post');
  });
});

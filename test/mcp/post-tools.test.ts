import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelWorld } from '../channels/helpers.ts';
import { type Agent, type AgentWorld, startAgentWorld } from './agent-world.ts';
import { callErr, callOk } from './helpers.ts';

/** The service with a connected platformA channel (sandbox platform on loopback), two accounts. */
let world: AgentWorld;
let w: ChannelWorld;
let a: Agent;
let b: Agent;

beforeAll(async () => {
  world = await startAgentWorld();
  ({ w, a, b } = world);
});
afterAll(async () => {
  await world?.close();
});

const rest = (method: string, path: string, key: string, body?: unknown) =>
  w.t.request(method, path, { key, body });
const inAnHour = () => w.clock.now() + 3_600_000;

describe('post tools call the same verbs as the REST routes', () => {
  it('list_channels returns what GET /v1/channels returns', async () => {
    const { data, summary } = await callOk(a.client, 'list_channels');
    const viaRest = await rest('GET', '/v1/channels', a.apiKey);
    expect(data).toEqual(viaRest.body);
    expect(data.channels.map((c: { id: string }) => c.id)).toEqual([a.channelId]);
    expect(summary).toContain(a.channelId);
    expect(JSON.stringify(data)).not.toMatch(/token/i);
  });

  it('a post created through a tool is visible through REST, and one created through REST through the tools', async () => {
    const viaTool = await callOk(a.client, 'create_post', {
      text: 'Made by an agent.',
      channelId: a.channelId,
    });
    expect(viaTool.data.post).toMatchObject({
      status: 'draft',
      channelId: a.channelId,
      platform: 'platformA',
    });
    expect(viaTool.summary).toContain(viaTool.data.post.id);
    const readByRest = await rest('GET', `/v1/posts/${viaTool.data.post.id}`, a.apiKey);
    expect(readByRest.status).toBe(200);
    expect(readByRest.body).toEqual(viaTool.data);

    const viaRest = await rest('POST', '/v1/posts', a.apiKey, { text: 'Made by a person.' });
    expect(viaRest.status).toBe(201);
    const readByTool = await callOk(a.client, 'get_post', { id: viaRest.body.post.id });
    expect(readByTool.data).toEqual(viaRest.body);

    const listed = await callOk(a.client, 'list_posts', { limit: 100 });
    expect(listed.data).toEqual((await rest('GET', '/v1/posts?limit=100', a.apiKey)).body);
    const ids = listed.data.posts.map((p: { id: string }) => p.id);
    expect(ids).toContain(viaTool.data.post.id);
    expect(ids).toContain(viaRest.body.post.id);
    const drafts = await callOk(a.client, 'list_posts', { status: 'draft', limit: 1 });
    expect(drafts.data.posts).toHaveLength(1);
    expect(drafts.data.pagination.hasMore).toBe(true);
  });

  it('schedule_post with an idempotencyKey: a retry replays the first answer, another time is refused', async () => {
    const { data: created } = await callOk(a.client, 'create_post', {
      text: 'Retry-safe.',
      channelId: a.channelId,
    });
    const id = created.post.id;
    const runAt = inAnHour();
    const first = await callOk(a.client, 'schedule_post', { id, runAt, idempotencyKey: 'schedule-retry-1' });
    expect(first.data.post).toMatchObject({ status: 'scheduled', scheduledFor: runAt });
    const retry = await callOk(a.client, 'schedule_post', { id, runAt, idempotencyKey: 'schedule-retry-1' });
    expect(retry.result._meta).toEqual({ idempotentReplay: true });
    expect(retry.data).toEqual(first.data);
    const moved = await callErr(a.client, 'schedule_post', {
      id,
      runAt: runAt + 60_000,
      idempotencyKey: 'schedule-retry-1',
    });
    expect(moved.error.code).toBe('idempotency_key_reused');
    await callOk(a.client, 'cancel_post', { id });
  });

  it('schedule, calendar and cancel through tools move the post as REST sees it', async () => {
    const { data: created } = await callOk(a.client, 'create_post', {
      text: 'Calendar me.',
      channelId: a.channelId,
    });
    const id = created.post.id;
    const runAt = inAnHour();
    const scheduled = await callOk(a.client, 'schedule_post', { id, runAt });
    expect(scheduled.data.post).toMatchObject({ id, status: 'scheduled', scheduledFor: runAt });
    expect((await rest('GET', `/v1/posts/${id}`, a.apiKey)).body.post.status).toBe('scheduled');

    const calendar = await callOk(a.client, 'get_calendar', { from: runAt - 1, to: runAt + 1 });
    expect(calendar.data).toEqual(
      (await rest('GET', `/v1/calendar?from=${runAt - 1}&to=${runAt + 1}`, a.apiKey)).body,
    );
    expect(calendar.data.calendar).toEqual([
      expect.objectContaining({ postId: id, status: 'scheduled', when: runAt, preview: 'Calendar me.' }),
    ]);

    const canceled = await callOk(a.client, 'cancel_post', { id });
    expect(canceled.data.post.status).toBe('canceled');
    expect((await rest('GET', `/v1/posts/${id}`, a.apiKey)).body.post.status).toBe('canceled');
    // Canceling again changes nothing, as on REST.
    expect((await callOk(a.client, 'cancel_post', { id })).data.post.status).toBe('canceled');
    const empty = await callOk(a.client, 'get_calendar', { from: runAt - 1, to: runAt + 1 });
    expect(empty.data.calendar).toEqual([]);

    const again = await callErr(a.client, 'schedule_post', { id, runAt: inAnHour() });
    expect(again.error.code).toBe('not_schedulable');
    expect(again.error.post).toMatchObject({ id, status: 'canceled' });
  });

  it('create_post with runAt creates the post already scheduled', async () => {
    const runAt = inAnHour();
    const { data } = await callOk(a.client, 'create_post', { text: 'Later.', channelId: a.channelId, runAt });
    expect(data.post).toMatchObject({ status: 'scheduled', scheduledFor: runAt });
  });

  it('a published post cannot be canceled: post_terminal, with the post', async () => {
    const { data } = await callOk(a.client, 'create_post', {
      text: 'Going out now.',
      channelId: a.channelId,
    });
    const published = await rest('POST', `/v1/posts/${data.post.id}/publish`, a.apiKey);
    expect(published.status, published.text).toBe(200);
    const err = await callErr(a.client, 'cancel_post', { id: data.post.id });
    expect(err.error.code).toBe('post_terminal');
    expect(err.error.post).toMatchObject({ id: data.post.id, status: 'published' });
    const readBack = await callOk(a.client, 'get_post', { id: data.post.id });
    expect(readBack.data.post.platformUrl).toMatch(/^http/);
    expect(readBack.summary).toContain('published');
  });

  it('the verbs’ rules arrive as tool errors with the API code and field details', async () => {
    const { data } = await callOk(a.client, 'create_post', { text: 'No channel.' });
    const noChannel = await callErr(a.client, 'schedule_post', { id: data.post.id, runAt: inAnHour() });
    expect(noChannel.error.code).toBe('invalid_request');
    expect(noChannel.error.details).toContainEqual({ path: 'channelId', message: expect.any(String) });

    const past = await callErr(a.client, 'create_post', {
      text: 'Too late.',
      channelId: a.channelId,
      runAt: w.clock.now() - 1000,
    });
    expect(past.error.details).toContainEqual({ path: 'runAt', message: expect.stringMatching(/future/) });

    const tooLong = await callErr(a.client, 'create_post', { text: 'x'.repeat(3001) });
    expect(tooLong.error.code).toBe('invalid_request');
    expect(tooLong.error.details).toContainEqual({ path: 'text', message: expect.stringMatching(/3000/) });

    expect((await callErr(a.client, 'get_post', { id: 'pst_doesnotexist' })).error.code).toBe('not_found');
    const window = await callErr(a.client, 'get_calendar', { from: 10, to: 5 });
    expect(window.error.code).toBe('invalid_request');
  });
});

describe('tenancy', () => {
  it("another account's posts and channels are not reachable through the tools", async () => {
    const { data } = await callOk(a.client, 'create_post', {
      text: 'Private to A.',
      channelId: a.channelId,
      runAt: inAnHour(),
    });
    const id = data.post.id;
    for (const [name, args] of [
      ['get_post', { id }],
      ['cancel_post', { id }],
      ['schedule_post', { id, runAt: inAnHour() }],
    ] as const) {
      const err = await callErr(b.client, name, args);
      expect(err.error.code, name).toBe('not_found');
    }
    const stolenChannel = await callErr(b.client, 'create_post', { text: 'Hijack.', channelId: a.channelId });
    expect(stolenChannel.error.code).toBe('invalid_request');
    expect(stolenChannel.error.details).toContainEqual({ path: 'channelId', message: expect.any(String) });

    const bPosts = await callOk(b.client, 'list_posts', { limit: 100 });
    expect(bPosts.data.posts.map((p: { id: string }) => p.id)).not.toContain(id);
    const bCalendar = await callOk(b.client, 'get_calendar');
    expect(bCalendar.data.calendar.map((e: { postId: string }) => e.postId)).not.toContain(id);
    const bChannels = await callOk(b.client, 'list_channels');
    expect(bChannels.data.channels.map((c: { id: string }) => c.id)).toEqual([b.channelId]);

    // A's post was not touched by B's attempts.
    expect((await rest('GET', `/v1/posts/${id}`, a.apiKey)).body.post).toEqual(data.post);
  });
});

describe('idempotency', () => {
  it('create_post with an idempotencyKey runs once; a retry returns the first result', async () => {
    const args = { text: 'Exactly once.', channelId: a.channelId, idempotencyKey: 'agent-retry-1' };
    const first = await callOk(a.client, 'create_post', args);
    const retry = await callOk(a.client, 'create_post', args);
    expect(retry.data).toEqual(first.data);
    expect(retry.result._meta).toEqual({ idempotentReplay: true });
    expect(first.result._meta).toBeUndefined();
    const all = await rest('GET', '/v1/posts?limit=100', a.apiKey);
    expect(all.body.posts.filter((p: { text: string }) => p.text === 'Exactly once.')).toHaveLength(1);

    const reused = await callErr(a.client, 'create_post', { ...args, text: 'Something else.' });
    expect(reused.error.code).toBe('idempotency_key_reused');
  });

  it('the key is shared with the REST Idempotency-Key header: same key and body replay across doors', async () => {
    const body = { text: 'Either door.', channelId: a.channelId };
    const viaTool = await callOk(a.client, 'create_post', { ...body, idempotencyKey: 'shared-door' });
    const viaRest = await w.t.request('POST', '/v1/posts', {
      key: a.apiKey,
      body,
      headers: { 'idempotency-key': 'shared-door' },
    });
    expect(viaRest.status).toBe(201);
    expect(viaRest.headers.get('idempotent-replay')).toBe('true');
    expect(viaRest.body).toEqual(viaTool.data);

    const restFirst = await w.t.request('POST', '/v1/posts', {
      key: a.apiKey,
      body: { text: 'REST first.' },
      headers: { 'idempotency-key': 'rest-first' },
    });
    const toolSecond = await callOk(a.client, 'create_post', {
      text: 'REST first.',
      idempotencyKey: 'rest-first',
    });
    expect(toolSecond.data).toEqual(restFirst.body);
    expect(toolSecond.result._meta).toEqual({ idempotentReplay: true });
  });

  it('a failed call releases the key, so the corrected call can use it', async () => {
    const bad = await callErr(a.client, 'create_post', { text: ' ', idempotencyKey: 'fix-and-retry' });
    expect(bad.error.code).toBe('invalid_request');
    const good = await callOk(a.client, 'create_post', { text: 'Fixed.', idempotencyKey: 'fix-and-retry' });
    expect(good.result._meta).toBeUndefined();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelWorld } from '../channels/helpers.ts';
import { type Agent, type AgentWorld, startAgentWorld } from './agent-world.ts';
import { callErr, callOk } from './helpers.ts';

/** The queue and series tools run the REST verbs: same results, same errors, same tenancy. */
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

describe('queue and series tools', () => {
  it('announce their hints', async () => {
    const { tools } = await a.client.listTools();
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(hints.get_queue).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      openWorldHint: false,
    });
    expect(hints.suggest_queue).toMatchObject({ readOnlyHint: true });
    expect(hints.set_queue).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(hints.clear_queue).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(hints.queue_post).toMatchObject({
      readOnlyHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(hints.schedule_series).toMatchObject({
      readOnlyHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(hints.cancel_series).toMatchObject({
      destructiveHint: true,
      idempotentHint: true,
      title: 'Cancel a series',
    });
  });

  it('set_queue, queue_post and get_queue agree with REST; schedule_series and cancel_series too', async () => {
    const set = await callOk(a.client, 'set_queue', {
      channelId: a.channelId,
      timezone: 'Europe/Paris',
      slots: [{ day: 2, time: '08:00' }],
    });
    expect(set.summary).toBe('Queue set: 1 slot a week in Europe/Paris (Tuesday 08:00).');
    const queued = await callOk(a.client, 'queue_post', {
      channelId: a.channelId,
      text: 'Queued by an agent',
    });
    expect(queued.data.slot).toMatchObject({ day: 2, time: '08:00', timezone: 'Europe/Paris' });
    expect(queued.summary).toContain('(Tuesday 08:00 Europe/Paris)');
    const view = await callOk(a.client, 'get_queue', { channelId: a.channelId, count: 2 });
    const rest = await w.t.request('GET', `/v1/channels/${a.channelId}/queue?count=2`, { key: a.apiKey });
    expect(view.data).toEqual(rest.body);
    expect(view.data.upcoming[0].postId).toBe(queued.data.post.id);

    const series = await callOk(a.client, 'schedule_series', {
      channelId: a.channelId,
      text: 'Monthly update',
      runAt: w.clock.now() + 3_600_000,
      repeat: { every: { unit: 'month', n: 1 }, count: 3 },
    });
    expect(series.data.series).toMatchObject({ kind: 'recurring', count: 3, timezone: 'Europe/Paris' });
    const got = await callOk(a.client, 'get_series', { id: series.data.series.id });
    expect(got.data.series.id).toBe(series.data.series.id);
    const canceled = await callOk(a.client, 'cancel_series', { id: series.data.series.id });
    expect(canceled.data.canceled).toContain(series.data.post.id);
    expect(canceled.summary).toMatch(/^Series ser_\w+ canceled; 1 occurrence canceled\.$/);
  });

  it("another account's channel and series are not found; an empty queue is queue_empty", async () => {
    const other = await callErr(b.client, 'get_queue', { channelId: a.channelId });
    expect(other.error.code).toBe('not_found');
    const series = await callOk(a.client, 'schedule_series', {
      channelId: a.channelId,
      text: 'Weekly',
      runAt: w.clock.now() + 3_600_000,
      repeat: { every: { unit: 'week', n: 1 }, count: 2 },
    });
    expect((await callErr(b.client, 'cancel_series', { id: series.data.series.id })).error.code).toBe(
      'not_found',
    );
    const empty = await callErr(b.client, 'queue_post', { channelId: b.channelId, text: 'No slots here' });
    expect(empty.error.code).toBe('queue_empty');
  });
});

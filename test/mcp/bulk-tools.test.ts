import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelWorld } from '../channels/helpers.ts';
import { type Agent, type AgentWorld, startAgentWorld } from './agent-world.ts';
import { callErr, callOk } from './helpers.ts';

/** check_bulk_csv, bulk_schedule_csv, get_metrics_history, get_analytics_trends: the REST verbs over MCP. */
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

describe('bulk CSV and metrics-over-time tools', () => {
  it('checks a CSV without writing, then schedules it all or nothing, idempotently', async () => {
    const runAt = w.clock.now() + 3_600_000;
    const good = `text,runAt,channelId\nFirst from a file,${runAt},${a.channelId}\n"Second, quoted",${runAt + 1},${a.channelId}\n`;
    const bad = `${good}Not mine,${runAt},${b.channelId}\n`;

    const check = await callOk(a.client, 'check_bulk_csv', { csv: bad });
    expect(check.data.valid).toBe(false);
    expect(check.data.rows.map((r: { ok: boolean }) => r.ok)).toEqual([true, true, false]);
    expect(check.summary).toBe('1 of 3 rows cannot be scheduled:\n- row 4: No such channel for this account');
    expect((await w.t.request('GET', '/v1/posts', { key: a.apiKey })).body.posts).toEqual([]);

    const refused = await callErr(a.client, 'bulk_schedule_csv', { csv: bad });
    expect(refused.error.code).toBe('invalid_request');
    expect(refused.error.details).toEqual([
      { path: 'row 4.channelId', message: 'No such channel for this account' },
    ]);
    expect((await w.t.request('GET', '/v1/posts', { key: a.apiKey })).body.posts).toEqual([]);

    const done = await callOk(a.client, 'bulk_schedule_csv', { csv: good, idempotencyKey: 'csv-tool-1' });
    expect(done.data.posts.map((p: { text: string }) => p.text)).toEqual([
      'First from a file',
      'Second, quoted',
    ]);
    const again = await callOk(a.client, 'bulk_schedule_csv', { csv: good, idempotencyKey: 'csv-tool-1' });
    expect(again.data).toEqual(done.data);
    expect((await w.t.request('GET', '/v1/posts', { key: a.apiKey })).body.posts).toHaveLength(2);
  });

  it('reads metrics history (404 for another account’s post) and trends', async () => {
    const draft = await w.t.request('POST', '/v1/posts', { key: a.apiKey, body: { text: 'Not out yet' } });
    const history = await callOk(a.client, 'get_metrics_history', { id: draft.body.post.id });
    expect(history.data).toEqual({
      postId: draft.body.post.id,
      publishedAt: null,
      snapshots: [],
      hasMore: false,
    });
    const theirs = await callErr(b.client, 'get_metrics_history', { id: draft.body.post.id });
    expect(theirs.error.code).toBe('not_found');
    const trends = await callOk(a.client, 'get_analytics_trends', {});
    expect(trends.data).toEqual((await w.t.request('GET', '/v1/analytics/trends', { key: a.apiKey })).body);
    expect(trends.summary).toBe('Decay: 1h no data, 24h no data, 7d no data. 0 weeks of posting.');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollDueMetrics } from '../../src/features/metrics/metrics.sweep.ts';
import { createPost, type Member, type PostWorld, startPostWorld } from '../posts/world.ts';

let w: PostWorld;

beforeAll(async () => {
  w = await startPostWorld({ env: { METRICS_POLL_BUDGET: '2', METRICS_MIN_POLL_INTERVAL_MS: '60000' } });
});
afterAll(async () => {
  await w?.close();
});

let seq = 0;
async function published(m: Member) {
  const post = await createPost(w.t, m, { text: `sweep post ${++seq}`, channelId: m.channelId });
  const res = await w.t.request('POST', `/v1/posts/${post.id}/publish`, { key: m.apiKey });
  expect(res.body.post?.status, res.text).toBe('published');
  return res.body.post as { id: string };
}
const refresh = (m: Member, id: string) =>
  w.t.request('POST', `/v1/posts/${id}/metrics/refresh`, { key: m.apiKey });
const metricsOf = (m: Member, id: string) => w.t.request('GET', `/v1/posts/${id}/metrics`, { key: m.apiKey });

describe('the metrics sweep', () => {
  it('polls the least recently polled published posts within its budget and interval', async () => {
    const gina = await w.member();
    const p1 = await published(gina);
    w.clock.advance(1000);
    const p2 = await published(gina);
    w.clock.advance(1000);
    const p3 = await published(gina);
    const historyLength = async (id: string) => (await metricsOf(gina, id)).body.history.length;

    // Budget 2: never-polled posts first, oldest published first.
    const handled = await w.t.service.runner!.runOnce();
    expect(handled.metrics).toBe(2);
    expect([await historyLength(p1.id), await historyLength(p2.id), await historyLength(p3.id)]).toEqual([
      1, 1, 0,
    ]);
    expect(await pollDueMetrics(w.t.service.deps)).toBe(1);
    expect(await historyLength(p3.id)).toBe(1);
    // Nothing is polled again within METRICS_MIN_POLL_INTERVAL_MS.
    expect(await pollDueMetrics(w.t.service.deps)).toBe(0);

    // A refresh counts as a poll: after the interval, p3 (refreshed later) waits its turn.
    w.clock.advance(30_000);
    expect((await refresh(gina, p1.id)).status).toBe(200);
    w.clock.advance(31_000);
    expect(await pollDueMetrics(w.t.service.deps)).toBe(2);
    expect([await historyLength(p1.id), await historyLength(p2.id), await historyLength(p3.id)]).toEqual([
      2, 2, 2,
    ]);
    w.clock.advance(30_000);
    expect(await pollDueMetrics(w.t.service.deps)).toBe(1);
    expect(await historyLength(p1.id)).toBe(3);
  });

  it('skips posts whose channel is not connected', async () => {
    const hank = await w.member();
    const post = await published(hank);
    await w.t.request('DELETE', `/v1/channels/${hank.channelId}`, { key: hank.apiKey });
    expect(await pollDueMetrics(w.t.service.deps)).toBe(0);
    expect((await metricsOf(hank, post.id)).body.history).toEqual([]);
  });
});

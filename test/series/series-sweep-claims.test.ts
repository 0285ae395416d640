import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts, series } from '../../src/db/schema/index.ts';
import {
  claimDueSeries,
  extendClaimed,
  extendDueSeries,
  SERIES_LEASE_MS,
} from '../../src/features/series/series.sweep.ts';
import { type Member, type PostWorld, startPostWorld } from '../posts/world.ts';

/**
 * The series sweep claims through the jobs kit (claimBatch: SKIP LOCKED, a lease, batches):
 * two workers sweeping at once take disjoint batches and do each series' step once; a claim
 * whose worker died is held until its lease lapses, then taken over, and the dead worker's
 * token extends nothing afterwards.
 */
let w: PostWorld;
let m: Member;
const DAY = 86_400_000;
/** More than one batch (20), so two workers both find work. */
const SERIES = 30;

beforeAll(async () => {
  w = await startPostWorld();
  m = await w.member();
});
afterAll(async () => {
  await w?.close();
});

async function startDailySeries(n: number, label: string) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await w.t.request('POST', '/v1/posts', {
      key: m.apiKey,
      body: {
        text: `${label} ${i}: the daily note.`,
        channelId: m.channelId,
        runAt: w.clock.now() + 3_600_000,
        repeat: { every: { unit: 'day', n: 1 }, count: 60 },
      },
    });
    expect(res.status, res.text).toBe(201);
    ids.push(res.body.series.id);
  }
  return ids;
}

const seriesRows = (ids: string[]) =>
  w.t.service.deps.db.select().from(series).where(inArray(series.id, ids));
const occurrenceCount = async (id: string) =>
  (await w.t.service.deps.db.select({ id: posts.id }).from(posts).where(eq(posts.seriesId, id))).length;

describe('the series sweep claims through the jobs kit', () => {
  it('two workers at once take disjoint batches: every due series is stepped once, by one of them', async () => {
    const ids = await startDailySeries(SERIES, 'Two workers');
    const deps = w.t.service.deps;
    const before = new Map((await seriesRows(ids)).map((s) => [s.id, s.nextIndex]));
    // A week on, every series needs 7 more occurrences to keep its horizon (28 days ahead).
    w.clock.advance(7 * DAY);
    try {
      const [a, b] = await Promise.all([extendDueSeries(deps), extendDueSeries(deps)]);
      // Each claimed a batch of its own (at most 20), together all 30 once.
      expect(a + b).toBe(SERIES);
      expect(Math.max(a, b)).toBeLessThanOrEqual(20);
      const after = await seriesRows(ids);
      for (const s of after) {
        expect(s.nextIndex - before.get(s.id)!, s.id).toBe(7);
        expect(await occurrenceCount(s.id)).toBe(s.nextIndex);
        expect([s.claimedBy, s.leaseUntil]).toEqual([null, null]);
      }
      // Nothing left to do: a second round claims nothing.
      expect(await Promise.all([extendDueSeries(deps), extendDueSeries(deps)])).toEqual([0, 0]);
    } finally {
      w.clock.advance(-7 * DAY);
    }
  });

  it("a dead worker's claim holds until its lease lapses; then another takes over and the dead token does nothing", async () => {
    const deps = w.t.service.deps;
    // The first test's series are extended to their horizon; these are new ones.
    await w.t.service.deps.db
      .update(series)
      .set({ status: 'canceled' })
      .where(eq(series.accountId, m.accountId));
    const ids = await startDailySeries(3, 'Lapsed claim');
    w.clock.advance(3 * DAY);
    try {
      // A worker claims and dies before extending anything.
      const dead = await claimDueSeries(deps, 'dead-worker:1');
      expect(dead.map((s) => s.id).sort()).toEqual([...ids].sort());
      const before = new Map((await seriesRows(ids)).map((s) => [s.id, s.nextIndex]));
      // While the lease runs, no one else takes them.
      expect(await extendDueSeries(deps)).toBe(0);
      w.clock.advance(SERIES_LEASE_MS + 1);
      expect(await extendDueSeries(deps)).toBe(3);
      const after = await seriesRows(ids);
      for (const s of after) expect(s.nextIndex - before.get(s.id)!).toBe(3);
      // The dead worker wakes up: its token holds nothing any more.
      for (const s of dead) expect(await extendClaimed(deps, s.id, 'dead-worker:1')).toBe(0);
      expect((await seriesRows(ids)).map((s) => s.nextIndex)).toEqual(after.map((s) => s.nextIndex));
    } finally {
      w.clock.advance(-(3 * DAY + SERIES_LEASE_MS + 1));
    }
  });
});

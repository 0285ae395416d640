import { describe, expect, it } from 'vitest';
import { configWith } from '../../src/config/config.ts';
import type { AppDeps } from '../../src/context.ts';
import { sweeps } from '../../src/jobs/index.ts';
import { type Sweep, startRunner } from '../../src/jobs/runner.ts';
import { noopMetrics } from '../../src/observability/metrics.ts';
import { until } from '../helpers/until.ts';
import { createPost, postRow, startPostWorld } from '../posts/world.ts';

/**
 * A run claims what is due when it claims, and a sweep's `nextDueAt` reports only future times
 * (a past one would make the runner spin). A row that falls due while a run is busy (a batch of
 * publishes takes seconds) is therefore past when the run ends: the runner must still come back
 * for it soon, not after SWEEP_INTERVAL_MS. Both tests use a ten-minute interval, so only that
 * can pick the second row up in time.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a row falling due while a run is busy', () => {
  it('is picked up right after the run, not at the next interval', async () => {
    const deps = {
      config: configWith({ SWEEP_INTERVAL_MS: '600000' }),
      clock: { now: () => Date.now() },
      log: { error: () => {}, warn: () => {} },
      metrics: noopMetrics,
    } as unknown as AppDeps;
    const start = Date.now();
    // Row a is due at once; row b 100 ms later, while the run that took a is still busy.
    const rows = [
      { id: 'a', dueAt: start, handledAt: null as number | null },
      { id: 'b', dueAt: start + 100, handledAt: null as number | null },
    ];
    const sweep: Sweep<string> = {
      name: 'due',
      run: async () => {
        const now = Date.now();
        const claimed = rows.filter((r) => r.handledAt === null && r.dueAt <= now);
        for (const r of claimed) r.handledAt = now;
        if (claimed.length) await sleep(300);
        return claimed.length;
      },
      // As nextWorkAfter: the earliest unclaimed due time still in the future.
      nextDueAt: async () => {
        const now = Date.now();
        const future = rows.filter((r) => r.handledAt === null && r.dueAt > now).map((r) => r.dueAt);
        return future.length ? Math.min(...future) : null;
      },
    };
    const runner = startRunner(deps, [sweep]);
    try {
      await until('row b to be handled', () => rows[1]!.handledAt !== null, 3_000, 10);
      // Right after the first run (300 ms), give or take the runner's 100 ms recheck floor.
      expect(rows[1]!.handledAt! - start).toBeLessThan(1_500);
    } finally {
      await runner.stop();
    }
  });

  it('the publish sweep publishes a post that fell due while it was publishing another', async () => {
    const world = await startPostWorld({ env: { SWEEP_INTERVAL_MS: '600000' } });
    try {
      const m = await world.member();
      // The test app starts its runner paused; this one runs like production.
      await world.t.service.runner!.stop();
      // As a worker on PostgreSQL whose wake relay listens: it sleeps until a wake or a due time
      // instead of polling every PUBLISH_POLL_MS (which would hide the gap).
      const live = startRunner(world.t.service.deps, sweeps, {
        wakeHub: world.t.service.wakeHub,
        acrossProcesses: { listening: true },
      });
      try {
        await sleep(200); // the first pass, with nothing due
        // Each create takes a second, so the second post falls due while the first is being sent.
        world.sandbox.faults.latency(1_000, 'createPost');
        const runAt = world.clock.now() + 1_000;
        const first = await createPost(world.t, m, { text: 'First of two', channelId: m.channelId, runAt });
        const second = await createPost(world.t, m, {
          text: 'Second of two',
          channelId: m.channelId,
          runAt: runAt + 300,
        });
        const published = async (id: string) => {
          const row = await postRow(world.t, id);
          return row?.status === 'published' ? row : null;
        };
        await until('the first post to publish', () => published(first.id), 10_000);
        const row = await until('the second post to publish', () => published(second.id), 10_000);
        expect(row.publishedAt! - (runAt + 300)).toBeLessThan(5_000);
        expect(m.platformPosts()).toHaveLength(2);
      } finally {
        await live.stop();
      }
    } finally {
      await world.close();
    }
  });
});

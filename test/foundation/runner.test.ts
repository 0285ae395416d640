import { describe, expect, it } from 'vitest';
import { configWith } from '../../src/config/config.ts';
import type { AppDeps } from '../../src/context.ts';
import { type Sweep, startRunner } from '../../src/jobs/runner.ts';
import { noopMetrics } from '../../src/observability/metrics.ts';
import { SweepName } from '../../src/wake/sweep-names.ts';
import { createWakeHub } from '../../src/wake/wake.ts';
import { until } from '../helpers/until.ts';

// The interval is an hour: any run after the first one was caused by a wake, a full batch or a
// reported due time, never by the clock, so the assertions below do not depend on timing.
const deps = () =>
  ({
    config: configWith({ SWEEP_INTERVAL_MS: '3600000' }),
    clock: { now: () => Date.now() },
    log: { error: () => {}, warn: () => {} },
    metrics: noopMetrics,
  }) as unknown as AppDeps;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const waitUntil = (check: () => boolean, what: string) => until(what, check, 5_000, 10);

describe('sweep runner', () => {
  it('runs sweeps independently: a woken sweep runs while another is still busy', async () => {
    let release!: () => void;
    const slowDone = new Promise<void>((r) => (release = r));
    let slowFinished = false;
    const fastRuns: number[] = [];
    const slow: Sweep<string> = {
      name: 'slow',
      run: async () => {
        await slowDone;
        slowFinished = true;
        return 0;
      },
    };
    const fast: Sweep<string> = {
      name: 'fast',
      run: async () => {
        fastRuns.push(Date.now());
        return 0;
      },
    };
    const runner = startRunner(deps(), [slow, fast]);
    await waitUntil(() => fastRuns.length === 1, 'first fast run');
    const wokenAt = Date.now();
    runner.wake('fast', wokenAt + 50);
    await waitUntil(() => fastRuns.length >= 2, 'woken fast run');
    expect(slowFinished).toBe(false);
    // Never before the time the wake asked for (the runner re-arms a timer that fires early).
    expect(fastRuns[1]!).toBeGreaterThanOrEqual(wokenAt + 50);
    expect(fastRuns).toHaveLength(2);
    release();
    await runner.stop();
  });

  it('runs again at once after a full batch, and at the next due time a sweep reports', async () => {
    let backlog = 25;
    let dueAt: number | null = null;
    const batches: [number, number][] = [];
    const sweep: Sweep<string> = {
      name: 'batch',
      batchSize: 10,
      run: async () => {
        // The due row is handled (timers may fire a millisecond early).
        if (dueAt !== null && Date.now() >= dueAt - 5) dueAt = -1;
        const n = Math.min(10, backlog);
        backlog -= n;
        batches.push([n, Date.now()]);
        if (backlog === 0 && dueAt === null) dueAt = Date.now() + 150;
        return n;
      },
      nextDueAt: async () => (dueAt === -1 ? null : dueAt),
    };
    const runner = startRunner(deps(), [sweep]);
    await waitUntil(() => batches.length >= 4, 'four runs');
    expect(batches.map(([n]) => n)).toEqual([10, 10, 5, 0]);
    expect(batches[3]![1] - batches[2]![1]).toBeGreaterThanOrEqual(135);
    await sleep(100);
    expect(batches).toHaveLength(4);
    await runner.stop();
  });

  it('stop waits for a run in progress and starts no more', async () => {
    let finished = 0;
    let started = 0;
    const sweep: Sweep<string> = {
      name: 'work',
      batchSize: 1,
      run: async (_deps, signal) => {
        started++;
        await sleep(100);
        finished++;
        return signal.aborted ? 0 : 1;
      },
    };
    const runner = startRunner(deps(), [sweep]);
    await waitUntil(() => started >= 1, 'a run');
    await runner.stop();
    expect(finished).toBe(started);
    const after = started;
    await sleep(150);
    expect(started).toBe(after);
  });

  it('takes wakes from the hub it was started on', async () => {
    const runs: number[] = [];
    const webhooks: Sweep = {
      name: SweepName.webhooks,
      run: async () => {
        runs.push(Date.now());
        return 0;
      },
    };
    const hub = createWakeHub();
    const runner = startRunner(deps(), [webhooks], { wakeHub: hub });
    await waitUntil(() => runs.length === 1, 'first run');
    // A wake for a sweep this runner does not have is ignored, not an error.
    hub.wake(SweepName.metrics);
    hub.wake(SweepName.webhooks);
    await waitUntil(() => runs.length === 2, 'woken run');
    await runner.stop();
  });

  it('polls at pollMs only while wakes from other processes do not arrive', async () => {
    const runs: number[] = [];
    const sweep: Sweep<string> = {
      name: 'polled',
      run: async () => {
        runs.push(Date.now());
        return 0;
      },
      pollMs: () => 50,
    };
    // The wake relay's state (wake-relay.ts): LISTEN not proven yet, so the sweep polls.
    const across = { listening: false };
    const runner = startRunner(deps(), [sweep], { acrossProcesses: across });
    await waitUntil(() => runs.length >= 4, 'four polls');
    expect(runs[3]! - runs[2]!).toBeGreaterThanOrEqual(45);
    // Wakes arrive now: after the run under way, it sleeps (an hour) until woken.
    across.listening = true;
    await sleep(150);
    const settled = runs.length;
    await sleep(300);
    expect(runs).toHaveLength(settled);
    runner.wake('polled');
    await waitUntil(() => runs.length === settled + 1, 'woken run');
    await runner.stop();
  });
});

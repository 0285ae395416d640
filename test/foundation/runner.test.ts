import { describe, expect, it } from 'vitest';
import { configWith } from '../../src/config/config.ts';
import type { AppDeps } from '../../src/context.ts';
import { type Sweep, startRunner } from '../../src/jobs/runner.ts';

const deps = (interval: number) =>
  ({
    config: configWith({ SWEEP_INTERVAL_MS: String(interval) }),
    clock: { now: () => Date.now() },
    log: { error: () => {}, warn: () => {} },
  }) as unknown as AppDeps;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('sweep runner', () => {
  it('runs sweeps independently: a slow sweep does not hold back a woken one', async () => {
    const runsAt: number[] = [];
    const slow: Sweep = { name: 'slow', run: () => sleep(600).then(() => 0) };
    const fast: Sweep = { name: 'fast', run: async () => (runsAt.push(Date.now()), 0) };
    const runner = startRunner(deps(60_000), [slow, fast]);
    await sleep(50); // both ran once at start; slow is still busy
    const wokenAt = Date.now();
    runner.wake('fast', wokenAt + 100);
    await sleep(300);
    expect(runsAt).toHaveLength(2);
    expect(runsAt[1]! - wokenAt).toBeGreaterThanOrEqual(90);
    expect(runsAt[1]! - wokenAt).toBeLessThan(500);
    await runner.stop();
  });

  it('runs again at once after a full batch, and at the next due time a sweep reports', async () => {
    let backlog = 25;
    let dueAt: number | null = null;
    const batches: number[] = [];
    const sweep: Sweep = {
      name: 'batch',
      batchSize: 10,
      run: async () => {
        if (dueAt !== null && Date.now() >= dueAt) dueAt = -1; // the due row is handled
        const n = Math.min(10, backlog);
        backlog -= n;
        batches.push(n);
        if (backlog === 0 && dueAt === null) dueAt = Date.now() + 150;
        return n;
      },
      nextDueAt: async () => (dueAt === -1 ? null : dueAt),
    };
    const runner = startRunner(deps(60_000), [sweep]);
    await sleep(100);
    expect(batches).toEqual([10, 10, 5]);
    await sleep(250);
    expect(batches).toEqual([10, 10, 5, 0]);
    await runner.stop();
  });

  it('stop waits for a run in progress and starts no more', async () => {
    let finished = 0;
    let started = 0;
    const sweep: Sweep = {
      name: 'work',
      run: async (_deps, signal) => {
        started++;
        await sleep(200);
        finished++;
        return signal.aborted ? 0 : 1;
      },
    };
    const runner = startRunner(deps(20), [sweep]);
    await sleep(50);
    await runner.stop();
    expect(finished).toBe(started);
    await sleep(100);
    expect(started).toBe(1);
  });
});

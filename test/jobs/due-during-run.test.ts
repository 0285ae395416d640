import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { configWith } from '../../src/config/config.ts';
import type { AppDeps } from '../../src/context.ts';
import { MIN_RECHECK_MS, type RunnerTimers, type Sweep, startRunner } from '../../src/jobs/runner.ts';
import { noopMetrics } from '../../src/observability/metrics.ts';

/**
 * A run claims what is due when it claims; a row that falls due while the run is busy (a batch
 * of publishes takes seconds), or is committed during it, must still be picked up right after
 * the run, not SWEEP_INTERVAL_MS (here ten minutes) later. Everything runs on a fake clock with
 * fake timers: the test, not the machine's load, decides when each row is committed, falls due,
 * is woken for, and when each run's claims and publishes end, and fast-check walks through the
 * interleavings (a row due before, at, during and after a run; committed before or during it;
 * woken for its time, for now, or only through an earlier row's merged wake).
 */

const START = 1_000_000;
const INTERVAL_MS = 600_000;

function fakeTime() {
  let now = START;
  let seq = 0;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timers: RunnerTimers = {
    set(fn, ms) {
      const id = ++seq;
      pending.set(id, { at: now + Math.max(0, ms), fn });
      return id;
    },
    clear: (id) => void pending.delete(id as number),
  };
  // Lets every promise chain the last step started settle (real I/O plays no part here).
  const settle = async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  return {
    clock: { now: () => now },
    timers,
    /** A promise that resolves when the fake clock reaches now + ms. */
    sleep: (ms: number) => new Promise<void>((r) => timers.set(r, ms)),
    /** Fires every timer due up to `until`, in time order, letting each one's work settle. */
    async runUntil(until: number, atEach: (t: number) => void = () => {}) {
      await settle();
      for (;;) {
        let first: [number, { at: number; fn: () => void }] | null = null;
        for (const entry of pending) if (!first || entry[1].at < first[1].at) first = entry;
        if (!first || first[1].at > until) break;
        pending.delete(first[0]);
        now = Math.max(now, first[1].at);
        atEach(now);
        first[1].fn();
        await settle();
      }
      now = Math.max(now, until);
    },
  };
}

interface Row {
  /** When the row is committed (visible to claims) and the wakes of its commit are sent. */
  committedAt: number;
  dueAt: number;
  /** The wake its writer sends: for its due time, or for now (e.g. a retry's own wake). */
  wake: 'due' | 'now';
  claimedAt?: number;
  claims?: number;
}

interface Scenario {
  rows: Row[];
  /** Per run: how long each claim statement takes, and the publishing after the last claim. */
  claimMs: number;
  publishMs: number[];
  /**
   * Without `nextDueAt` (a sweep that only has wakes), every row's wake must be kept until a
   * run covers it; each row then sends its own (nothing else would find a merged one).
   */
  reportsDue?: boolean;
}

async function play({ rows, claimMs, publishMs, reportsDue = true }: Scenario) {
  const time = fakeTime();
  const deps = {
    config: configWith({ SWEEP_INTERVAL_MS: String(INTERVAL_MS) }),
    clock: time.clock,
    log: { error: () => {}, warn: () => {} },
    metrics: noopMetrics,
  } as unknown as AppDeps;
  const runs: { start: number; end: number }[] = [];
  const visible = (r: Row) => r.committedAt <= time.clock.now();
  const sweep: Sweep<string> = {
    name: 'due',
    // As publishDue: claim batches until a claim finds nothing, then the claimed work finishes.
    async run() {
      const run = { start: time.clock.now(), end: Number.NaN };
      runs.push(run);
      let handled = 0;
      for (;;) {
        const now = time.clock.now();
        const claimed = rows.filter((r) => visible(r) && r.claimedAt === undefined && r.dueAt <= now);
        for (const r of claimed) {
          r.claimedAt = now;
          r.claims = (r.claims ?? 0) + 1;
        }
        await time.sleep(claimMs);
        handled += claimed.length;
        if (claimed.length === 0) break;
      }
      await time.sleep(publishMs[(runs.length - 1) % publishMs.length]!);
      run.end = time.clock.now();
      return handled;
    },
  };
  // As nextWorkAfter: the earliest unclaimed row not due at the run's start, past or future.
  if (reportsDue) {
    sweep.nextDueAt = async (_deps, since) => {
      const later = rows.filter((r) => visible(r) && r.claimedAt === undefined && r.dueAt > since);
      return later.length ? Math.min(...later.map((r) => r.dueAt)) : null;
    };
  }
  const runner = startRunner(deps, [sweep], { timers: time.timers, acrossProcesses: { listening: true } });
  // Rows are committed (and their wakes sent) at their moments, between timer firings.
  const commits = [...new Set(rows.map((r) => r.committedAt))].sort((a, b) => a - b);
  // As the wake relay (wake-relay.ts) does, the wakes of one moment are merged into one for
  // the earliest time: rows due later have no wake of their own and are found by nextDueAt.
  const wakeFor = (t: number) => {
    const times = rows.filter((r) => r.committedAt === t).map((r) => (r.wake === 'now' ? t : r.dueAt));
    if (reportsDue) runner.wake('due', Math.min(...times));
    else {
      // Each row's own wake for its due time (a wake for now finds nothing not yet due).
      for (const time of times) runner.wake('due', time);
      for (const r of rows) if (r.committedAt === t) runner.wake('due', r.dueAt);
    }
  };
  for (const t of commits) {
    await time.runUntil(t - 1);
    await time.runUntil(t);
    wakeFor(t);
  }
  const last = Math.max(...rows.map((r) => r.dueAt));
  await time.runUntil(last + 30_000);
  await runner.stop();
  return runs;
}

/** Where a row must have been claimed by: the first run that can see it once it is due. */
function deadline(row: Row, runs: { start: number; end: number }[]) {
  const ready = Math.max(row.dueAt, row.committedAt);
  const busy = runs.find((r) => r.start <= ready && ready < r.end);
  return (busy ? busy.end : ready) + MIN_RECHECK_MS;
}

const at = (ms: number) => START + ms;

describe('a row falling due or committed while a run is busy', () => {
  it('is claimed right after the run in every interleaving, once, without spinning', async () => {
    const row = fc
      .record({
        committedAt: fc.integer({ min: 0, max: 3_000 }),
        delay: fc.integer({ min: 0, max: 2_000 }),
        wake: fc.constantFrom<Row['wake']>('due', 'now'),
      })
      .map(({ committedAt, delay, wake }) => ({
        committedAt: at(committedAt),
        dueAt: at(committedAt + delay),
        wake,
      }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 60 }),
        fc.array(fc.integer({ min: 0, max: 1_500 }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (generated, claimMs, publishMs, reportsDue) => {
          // fast-check replays values while shrinking: each play gets rows of its own.
          const rows: Row[] = generated.map((r) => ({ ...r }));
          const runs = await play({ rows, claimMs, publishMs, reportsDue });
          for (const r of rows) {
            expect(r.claims, JSON.stringify({ r, runs })).toBe(1);
            expect(r.claimedAt!, JSON.stringify({ r, runs })).toBeLessThanOrEqual(deadline(r, runs));
          }
          // Runs come from rows and their wakes only (the interval is ten minutes away):
          // at most the first, one per row falling due, one per wake, and one recheck each.
          expect(runs.length).toBeLessThanOrEqual(1 + 4 * rows.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  // The named interleavings, kept as examples (the property above covers them too).
  const cases: [string, Scenario][] = [
    [
      'due during the publishing that follows the last claim, its wake merged into an earlier one',
      {
        rows: [
          { committedAt: at(0), dueAt: at(0), wake: 'due' },
          { committedAt: at(0), dueAt: at(300), wake: 'due' },
        ],
        claimMs: 10,
        publishMs: [1_000],
      },
    ],
    [
      'due during the run, its own wake dropped earlier because an earlier run was planned',
      {
        rows: [
          { committedAt: at(0), dueAt: at(500), wake: 'due' },
          { committedAt: at(1), dueAt: at(800), wake: 'due' },
        ],
        claimMs: 10,
        publishMs: [0, 1_000],
      },
    ],
    [
      'committed during the run, already due, woken for a time before the run began',
      {
        rows: [
          { committedAt: at(0), dueAt: at(0), wake: 'due' },
          { committedAt: at(400), dueAt: at(400), wake: 'now' },
        ],
        claimMs: 0,
        publishMs: [1_000],
      },
    ],
    [
      'due exactly when the run ends',
      {
        rows: [
          { committedAt: at(0), dueAt: at(0), wake: 'due' },
          { committedAt: at(0), dueAt: at(1_010), wake: 'due' },
        ],
        claimMs: 10,
        publishMs: [1_000],
      },
    ],
  ];
  for (const [name, scenario] of cases) {
    it(name, async () => {
      const rows = scenario.rows.map((r) => ({ ...r }));
      const runs = await play({ ...scenario, rows });
      for (const r of rows) {
        expect(r.claims).toBe(1);
        expect(r.claimedAt!).toBeLessThanOrEqual(deadline(r, runs));
      }
    });
  }
});

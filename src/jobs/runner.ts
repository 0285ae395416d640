import type { AppDeps } from '../context.ts';

/**
 * A sweep claims and processes due rows (posts, deliveries, metric polls). Sweeps are safe to
 * run in any number of processes at once: each claims its rows with SKIP LOCKED or an
 * atomic status compare-and-set. `run` returns how many rows it handled.
 */
export interface Sweep {
  name: string;
  run(deps: AppDeps, signal: AbortSignal): Promise<number>;
  /** When a run handles this many rows, more are probably waiting: run again at once. */
  batchSize?: number;
  /** Optional: epoch ms of the next due row, so the runner wakes for it before the next tick. */
  nextDueAt?(deps: AppDeps): Promise<number | null>;
}

export interface Runner {
  /** Asks one sweep to run at `atMs` (default now) if that is before its next tick. */
  wake(sweepName: string, atMs?: number): void;
  /** Stops starting new runs and waits for in-flight runs to finish their claimed work. */
  stop(): Promise<void>;
  /** Runs every sweep once now, in order; used by tests and benchmarks. */
  runOnce(): Promise<Record<string, number>>;
}

export function startRunner(deps: AppDeps, sweeps: Sweep[], options: { autoStart?: boolean } = {}): Runner {
  const abort = new AbortController();
  const interval = deps.config.SWEEP_INTERVAL_MS;
  const now = () => deps.clock.now();
  const nextRunAt = new Map<string, number>(sweeps.map((s) => [s.name, now()]));
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = options.autoStart === false;
  /** Wakes that arrive during a pass; merged when it ends so the pass cannot overwrite them. */
  const pendingWakes = new Map<string, number>();

  async function runSweep(sweep: Sweep): Promise<number> {
    let handled = 0;
    try {
      handled = await sweep.run(deps, abort.signal);
    } catch (err) {
      deps.log.error({ err, sweep: sweep.name }, 'sweep failed');
    }
    let next = now() + interval;
    if (sweep.batchSize && handled >= sweep.batchSize) next = now();
    else if (sweep.nextDueAt) {
      try {
        const due = await sweep.nextDueAt(deps);
        if (due !== null) next = Math.min(next, due);
      } catch (err) {
        deps.log.warn({ err, sweep: sweep.name }, 'could not read next due time');
      }
    }
    nextRunAt.set(sweep.name, next);
    return handled;
  }

  function arm() {
    if (stopped || running) return;
    if (timer) clearTimeout(timer);
    const earliest = Math.min(...nextRunAt.values());
    timer = setTimeout(tick, Math.max(0, earliest - now()));
  }

  function tick() {
    timer = null;
    if (stopped || running) return;
    running = (async () => {
      for (const sweep of sweeps) {
        if (abort.signal.aborted) return;
        if ((nextRunAt.get(sweep.name) ?? 0) <= now()) await runSweep(sweep);
      }
    })()
      .catch((err) => deps.log.error({ err }, 'runner tick failed'))
      .finally(() => {
        running = null;
        for (const [name, at] of pendingWakes) nextRunAt.set(name, Math.min(nextRunAt.get(name) ?? at, at));
        pendingWakes.clear();
        arm();
      });
  }

  arm();

  return {
    wake(sweepName, atMs) {
      const current = nextRunAt.get(sweepName);
      if (current === undefined) return;
      const at = atMs ?? now();
      if (running) {
        pendingWakes.set(sweepName, Math.min(pendingWakes.get(sweepName) ?? at, at));
        return;
      }
      if (at < current) {
        nextRunAt.set(sweepName, at);
        arm();
      }
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      abort.abort();
      await running;
    },
    async runOnce() {
      const handled: Record<string, number> = {};
      for (const sweep of sweeps) handled[sweep.name] = await runSweep(sweep);
      return handled;
    },
  };
}

import type { AppDeps } from '../context.ts';
import type { SweepName } from './sweep-names.ts';
import type { WakeHub } from './wake.ts';

/**
 * A sweep claims and processes due rows (posts, deliveries, metric polls). Sweeps are safe to
 * run in any number of processes at once: each claims its rows with SKIP LOCKED or an
 * atomic status compare-and-set. `run` returns how many rows it handled.
 */
export interface Sweep<N extends string = SweepName> {
  name: N;
  run(deps: AppDeps, signal: AbortSignal): Promise<number>;
  /** When a run handles this many rows, more are probably waiting: run again at once. */
  batchSize?: number;
  /** Optional: epoch ms of the next due row, so the runner wakes for it before the next tick. */
  nextDueAt?(deps: AppDeps): Promise<number | null>;
  /**
   * Optional: how soon to look again for rows another process made due, while wakes from
   * other processes cannot reach this one (embedded database, or LISTEN down: wake-relay.ts).
   * While they can, the sweep sleeps until a wake, its `nextDueAt` or SWEEP_INTERVAL_MS.
   */
  pollMs?(deps: AppDeps): number;
}

export interface Runner<N extends string = SweepName> {
  /** Asks one sweep to run at `atMs` (default now) if that is before its next run. */
  wake(sweepName: N, atMs?: number): void;
  /** Stops starting new runs and waits for in-flight runs to finish their claimed work. */
  stop(): Promise<void>;
  /** Runs every sweep once now, in order; used by tests and benchmarks. */
  runOnce(): Promise<Record<N, number>>;
}

/** Floor between a run and the next when a sweep reports rows due now or overdue. */
const MIN_RECHECK_MS = 100;

/**
 * One independent loop per sweep: a slow webhook or metrics pass never delays a due post.
 * Each loop runs its sweep every SWEEP_INTERVAL_MS, at once again after a full batch, and
 * early for the next due row the sweep reports or a wake asks for.
 */
class SweepLoop<N extends string> {
  readonly sweep: Sweep<N>;
  readonly #deps: AppDeps;
  readonly #signal: AbortSignal;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<number> | null = null;
  #nextRunAt: number;
  /** A wake that arrived during a run; honoured when the run has set its own next time. */
  #pendingWake: number | null = null;
  #stopped: boolean;

  readonly #wakesArrive: () => boolean;

  constructor(
    sweep: Sweep<N>,
    deps: AppDeps,
    signal: AbortSignal,
    start: boolean,
    wakesArrive: () => boolean,
  ) {
    this.sweep = sweep;
    this.#deps = deps;
    this.#signal = signal;
    this.#wakesArrive = wakesArrive;
    this.#stopped = !start;
    this.#nextRunAt = deps.clock.now();
    this.#arm();
  }

  #now() {
    return this.#deps.clock.now();
  }

  #arm() {
    if (this.#stopped || this.#running) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.runNow(), Math.max(0, this.#nextRunAt - this.#now()));
  }

  /** Runs the sweep now (or joins the run in progress) and schedules the next one. */
  runNow(): Promise<number> {
    if (this.#running) return this.#running;
    this.#timer = null;
    // Sweep lag (metrics): how long after its planned time this run starts.
    this.#running = this.#runAndPlan(this.#now() - this.#nextRunAt).finally(() => {
      this.#running = null;
      if (this.#pendingWake !== null) this.#nextRunAt = Math.min(this.#nextRunAt, this.#pendingWake);
      this.#pendingWake = null;
      this.#arm();
    });
    return this.#running;
  }

  async #runAndPlan(lagMs: number): Promise<number> {
    const { sweep } = this;
    const deps = this.#deps;
    const started = this.#now();
    let handled = 0;
    let failed = false;
    try {
      handled = await sweep.run(deps, this.#signal);
    } catch (err) {
      failed = true;
      deps.log.error({ err, sweep: sweep.name }, 'sweep failed');
    }
    deps.metrics.sweepRun(sweep.name, lagMs, this.#now() - started, failed);
    let next = this.#now() + deps.config.SWEEP_INTERVAL_MS;
    if (sweep.pollMs && !this.#wakesArrive()) next = Math.min(next, this.#now() + sweep.pollMs(deps));
    if (sweep.batchSize && handled >= sweep.batchSize) next = this.#now();
    else if (sweep.nextDueAt) {
      try {
        const due = await sweep.nextDueAt(deps);
        // A row already due after a run is one this process could not take (another holds it):
        // look again shortly rather than spin.
        if (due !== null) next = Math.min(next, Math.max(due, this.#now() + MIN_RECHECK_MS));
      } catch (err) {
        deps.log.warn({ err, sweep: sweep.name }, 'could not read next due time');
      }
    }
    this.#nextRunAt = next;
    return handled;
  }

  wake(atMs: number) {
    if (this.#running) {
      this.#pendingWake = Math.min(this.#pendingWake ?? atMs, atMs);
      return;
    }
    if (atMs < this.#nextRunAt) {
      this.#nextRunAt = atMs;
      this.#arm();
    }
  }

  async stop() {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running;
  }
}

export interface RunnerOptions {
  /** Start the loops now (default true); tests may drive `runOnce()` instead. */
  autoStart?: boolean;
  /** The process's wake hub: wakes sent through `deps.wake` reach this runner until it stops. */
  wakeHub?: WakeHub;
  /** Whether wakes from other processes reach this one now (wake-relay.ts); absent: never. */
  acrossProcesses?: { readonly listening: boolean };
}

export function startRunner<N extends string = SweepName>(
  deps: AppDeps,
  sweeps: Sweep<N>[],
  options: RunnerOptions = {},
): Runner<N> {
  const abort = new AbortController();
  const wakesArrive = () => options.acrossProcesses?.listening === true;
  const loops = new Map(
    sweeps.map((sweep) => [
      sweep.name,
      new SweepLoop(sweep, deps, abort.signal, options.autoStart !== false, wakesArrive),
    ]),
  );
  const wake = (sweepName: string, atMs?: number) =>
    loops.get(sweepName as N)?.wake(atMs ?? deps.clock.now());
  const unlisten = options.wakeHub?.listen(wake);
  return {
    wake,
    async stop() {
      unlisten?.();
      // The signal tells sweeps to claim no more; what they already claimed finishes.
      abort.abort();
      await Promise.all([...loops.values()].map((loop) => loop.stop()));
    },
    async runOnce() {
      const handled = {} as Record<N, number>;
      for (const loop of loops.values()) handled[loop.sweep.name] = await loop.runNow();
      return handled;
    },
  };
}

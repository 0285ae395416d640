import type { AppDeps } from '../context.ts';
import type { SweepName } from '../wake/sweep-names.ts';
import type { WakeHub } from '../wake/wake.ts';

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
  /**
   * Optional: epoch ms of the earliest row that was not yet due when the run just finished
   * started (`since`), so the runner wakes for it before the next tick. It may be in the past:
   * a row that fell due while the run was busy (the run had already claimed what was due), or a
   * claim that lapsed meanwhile. The runner then runs again shortly; the next run's `since` is
   * later, so each such row causes one look, never a spin. Rows due before `since` were the
   * run's to claim: those still unclaimed are held by another process and are not reported.
   */
  nextDueAt?(deps: AppDeps, since: number): Promise<number | null>;
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
export const MIN_RECHECK_MS = 100;
/** Wake times a loop remembers beyond its next run (the earliest are kept). */
const MAX_LATER_WAKES = 1_024;

/** setTimeout/clearTimeout, injectable so tests drive every run boundary on a fake clock. */
export interface RunnerTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: RunnerTimers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * One independent loop per sweep: a slow webhook or metrics pass never delays a due post.
 * Each loop runs its sweep every SWEEP_INTERVAL_MS, at once again after a full batch, and
 * early for the next due row the sweep reports or a wake asks for.
 *
 * No row waits for the interval because it fell due while a run was busy: the run claims what
 * is due when it claims, so after it the loop asks the sweep for the earliest row not due at
 * the run's start (past or future), and keeps every wake it was given that the run did not
 * cover (one for a later time, or one that arrived during the run, whose row the run may have
 * looked for before it was committed). test/jobs/due-during-run.test.ts drives every
 * interleaving of due times, wakes and run boundaries on a fake clock.
 */
class SweepLoop<N extends string> {
  readonly sweep: Sweep<N>;
  readonly #deps: AppDeps;
  readonly #signal: AbortSignal;
  readonly #timers: RunnerTimers;
  #timer: unknown = null;
  #running: Promise<number> | null = null;
  /** When the run in progress started (meaningful while `#running`). */
  #runStartedAt = 0;
  #nextRunAt: number;
  /** Wake times no run has covered yet, ascending, at most MAX_LATER_WAKES. */
  #wakes: number[] = [];
  #stopped: boolean;

  readonly #wakesArrive: () => boolean;

  constructor(
    sweep: Sweep<N>,
    deps: AppDeps,
    signal: AbortSignal,
    start: boolean,
    wakesArrive: () => boolean,
    timers: RunnerTimers,
  ) {
    this.sweep = sweep;
    this.#deps = deps;
    this.#signal = signal;
    this.#wakesArrive = wakesArrive;
    this.#timers = timers;
    this.#stopped = !start;
    this.#nextRunAt = deps.clock.now();
    this.#arm();
  }

  #now() {
    return this.#deps.clock.now();
  }

  #arm() {
    if (this.#stopped || this.#running) return;
    if (this.#timer !== null) this.#timers.clear(this.#timer);
    this.#timer = this.#timers.set(
      () => {
        this.#timer = null;
        // Timers may fire a millisecond before the clock reads the planned time; a run then
        // would not see a row due at that time yet (and the wake would ask for another run).
        if (this.#now() < this.#nextRunAt) this.#arm();
        else void this.runNow();
      },
      Math.max(0, Math.ceil(this.#nextRunAt - this.#now())),
    );
  }

  /** Runs the sweep now (or joins the run in progress) and schedules the next one. */
  runNow(): Promise<number> {
    if (this.#running) return this.#running;
    if (this.#timer !== null) this.#timers.clear(this.#timer);
    this.#timer = null;
    this.#runStartedAt = this.#now();
    // Sweep lag (metrics): how long after its planned time this run starts.
    this.#running = this.#runAndPlan(this.#runStartedAt - this.#nextRunAt).finally(() => {
      this.#running = null;
      this.#arm();
    });
    return this.#running;
  }

  async #runAndPlan(lagMs: number): Promise<number> {
    const { sweep } = this;
    const deps = this.#deps;
    const started = this.#runStartedAt;
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
        const due = await sweep.nextDueAt(deps, started);
        // A row due by now fell due during the run (or another process holds it): look again
        // shortly. Its time is then before the next run's start, so it is reported once.
        if (due !== null) next = Math.min(next, Math.max(due, this.#now() + MIN_RECHECK_MS));
      } catch (err) {
        deps.log.warn({ err, sweep: sweep.name }, 'could not read next due time');
      }
    }
    // A wake for a time the run started at or after is covered: the run claimed what was due.
    // The rest (recorded during the run at no earlier than its start + 1, see `wake`) stay.
    this.#wakes = this.#wakes.filter((at) => at > started);
    if (this.#wakes.length > 0) next = Math.min(next, this.#wakes[0]!);
    this.#nextRunAt = next;
    return handled;
  }

  wake(atMs: number) {
    // During a run, the row behind the wake may have been committed after the run looked for
    // it: whatever time the wake names, a run after this one must look again.
    const at = this.#running ? Math.max(atMs, this.#runStartedAt + 1) : atMs;
    this.#remember(at);
    if (this.#running) return;
    if (at < this.#nextRunAt) {
      this.#nextRunAt = at;
      this.#arm();
    }
  }

  #remember(at: number) {
    const wakes = this.#wakes;
    let i = wakes.length;
    while (i > 0 && wakes[i - 1]! > at) i--;
    if (wakes[i - 1] === at) return;
    wakes.splice(i, 0, at);
    // Beyond the cap, the latest go: the sweep's `nextDueAt` or the interval finds those rows.
    if (wakes.length > MAX_LATER_WAKES) wakes.pop();
  }

  async stop() {
    this.#stopped = true;
    if (this.#timer !== null) this.#timers.clear(this.#timer);
    this.#timer = null;
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
  /** Timers for the loops (default the real ones); the clock is `deps.clock`. */
  timers?: RunnerTimers;
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
      new SweepLoop(
        sweep,
        deps,
        abort.signal,
        options.autoStart !== false,
        wakesArrive,
        options.timers ?? realTimers,
      ),
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

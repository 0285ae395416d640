import type { SweepName } from './sweep-names.ts';

/** Asks this process's runner to run `sweep` at `atMs` (default now); later asks never delay it. */
export type Wake = (sweep: SweepName, atMs?: number) => void;

/**
 * Connects the code that makes work due (a post scheduled, an event written) to the runner
 * that does it. The hub exists before the dependencies and the runner: the dependencies get
 * `hub.wake` when they are built and a runner listens when it starts, so neither has to be
 * patched onto the other afterwards. With no runner listening (an `api`-only process) a wake
 * does nothing: the workers elsewhere find due rows by polling.
 */
export interface WakeHub {
  wake: Wake;
  /** Forwards wakes to `target` until the returned function is called. */
  listen(target: Wake): () => void;
}

export function createWakeHub(): WakeHub {
  const targets = new Set<Wake>();
  return {
    wake(sweep, atMs) {
      for (const target of targets) target(sweep, atMs);
    },
    listen(target) {
      // Wrapped so the same function may listen twice and unlisten once without surprises.
      const entry: Wake = (sweep, atMs) => target(sweep, atMs);
      targets.add(entry);
      return () => targets.delete(entry);
    },
  };
}

import type { Sweep } from './runner.ts';

/** Every background sweep, in the order a tick runs them. Feature areas add theirs here. */
export const sweeps: Sweep[] = [];

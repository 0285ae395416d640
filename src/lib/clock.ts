/** Time as a dependency, so tests can move it; epoch milliseconds everywhere. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Effects in overall points as signals state them: a weight of 1-5, and "+1.3 points".
 */

export function weightOf(points: number): number {
  const p = Math.abs(points);
  return p >= 6 ? 5 : p >= 4 ? 4 : p >= 2.5 ? 3 : p >= 1.2 ? 2 : 1;
}

/**
 * `a.toFixed(1)` for a number `a` >= 0 (or -0), the same string: the tenths are rounded in
 * floating point, which decides exactly except within 1e-7 of a tie (there `a * 10` may have
 * rounded across it, and `toFixed`, which reads `a` exactly, decides). `toFixed` is a call into
 * the runtime, about 2% of the scorer's time in a CPU profile (2026-11-29): a dozen signal
 * details per post state their points.
 */
export function tenths(a: number): string {
  // Below 1e7 the product's rounding error is under 1e-8; NaN and larger numbers take `toFixed`.
  if (!(a < 1e7)) return a.toFixed(1);
  const y = a * 10;
  const above = y - Math.floor(y);
  if (Math.abs(above - 0.5) < 1e-7) return a.toFixed(1);
  const n = Math.round(y);
  const whole = Math.floor(n / 10);
  return `${whole}.${n - whole * 10}`;
}

export const signed = (points: number) => `${points >= 0 ? '+' : '-'}${tenths(Math.abs(points))}`;
export const points = (p: number) => `${signed(p)} points`;

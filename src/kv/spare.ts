import type { SpareRule } from './kv.ts';

/** The spare units a reservation adds when `left` remain after the granted ones (as redis.ts's script). */
export const spareUnits = (left: number, rule: SpareRule) =>
  Math.max(0, Math.min(rule.maxSpare, Math.floor(left / rule.divisor)));

/**
 * DECISIONS.md: attempts at +0 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 24 h.
 * Each delay counts from the previous attempt (the first from the event), so a delivery
 * that never succeeds is given up about 47 hours after its event. WEBHOOK_BACKOFF_SCALE
 * multiplies every delay (a test compresses the schedule with 0.001).
 */
export const RETRY_DELAYS_SECONDS = [0, 30, 120, 600, 1_800, 3_600, 10_800, 21_600, 43_200, 86_400] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length;

/** How long after attempt number `attemptsMade` the next one is due; null when none is left. */
export function nextAttemptDelayMs(attemptsMade: number, scale: number): number | null {
  if (attemptsMade >= MAX_ATTEMPTS) return null;
  return Math.round(RETRY_DELAYS_SECONDS[attemptsMade]! * 1000 * scale);
}

/**
 * Every retry and backoff schedule of the background work, as data. A schedule answers one
 * question: after `attemptsMade` attempts, how long until the next one (null: give up).
 */
export type RetrySchedule =
  /** Fixed delays, one per attempt; the first counts from when the work became due. */
  | { kind: 'steps'; delaysMs: readonly number[] }
  /** base * factor^(attemptsMade - 1) after each failure, up to `maxAttempts` attempts in all. */
  | { kind: 'exponential'; baseMs: number; factor: number; maxAttempts: number; maxDelayMs?: number };

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * DECISIONS.md: webhook attempts at +0 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 24 h.
 * Each delay counts from the previous attempt (the first from the event), so a delivery that
 * never succeeds is given up about 47 hours after its event.
 */
export const WEBHOOK_RETRY = {
  kind: 'steps',
  delaysMs: [
    0,
    30 * SECOND,
    2 * MINUTE,
    10 * MINUTE,
    30 * MINUTE,
    HOUR,
    3 * HOUR,
    6 * HOUR,
    12 * HOUR,
    24 * HOUR,
  ],
} satisfies RetrySchedule;

/** A publish that failed before the platform acted: 30 s, 2 min, 8 min... (attempts are capped by config). */
export const PUBLISH_RETRY = {
  kind: 'exponential',
  baseMs: 30 * SECOND,
  factor: 4,
  maxAttempts: Number.POSITIVE_INFINITY,
} satisfies RetrySchedule;

/**
 * Crash recovery asking the platform again whether a create in doubt landed, while the platform
 * cannot answer yet (its listing down, rate-limited, our token being refreshed): 15 s, 30 s,
 * 1 min, 2 min... and then hourly, for as long as the platform can still tell (its own
 * window, sent-create-recovery.ts). Each look-up is a few list calls; an hour between them
 * costs the platform nothing while a lasting outage is fixed.
 */
export const LOOKUP_RETRY = {
  kind: 'exponential',
  baseMs: 15 * SECOND,
  factor: 2,
  maxAttempts: Number.POSITIVE_INFINITY,
  maxDelayMs: HOUR,
} satisfies RetrySchedule;

/** How often each connected channel's token is shown to the platform to detect revocation. */
export const TOKEN_PROBE_INTERVAL_MS = 12 * HOUR;
/** A channel whose refresh just failed is not retried by the health sweep before this. */
export const TOKEN_REFRESH_RETRY_AFTER_MS = 5 * MINUTE;

/** Attempts a schedule allows in all. */
export function maxAttempts(schedule: RetrySchedule): number {
  return schedule.kind === 'steps' ? schedule.delaysMs.length : schedule.maxAttempts;
}

/**
 * The delay before the next attempt after `attemptsMade` attempts, or null when none is left.
 * `scale` multiplies it (tests compress a schedule with e.g. 0.001).
 */
export function nextDelayMs(schedule: RetrySchedule, attemptsMade: number, scale = 1): number | null {
  if (attemptsMade >= maxAttempts(schedule)) return null;
  const ms =
    schedule.kind === 'steps'
      ? schedule.delaysMs[attemptsMade]!
      : Math.min(
          schedule.baseMs * schedule.factor ** Math.max(0, attemptsMade - 1),
          schedule.maxDelayMs ?? Number.POSITIVE_INFINITY,
        );
  return Math.round(ms * scale);
}

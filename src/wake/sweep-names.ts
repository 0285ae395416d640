/**
 * Every background sweep's name, in one place: the runner keys its loops by these, and
 * `deps.wake` only accepts one of them, so a misspelt wake is a type error, not a silent no-op.
 */
export const SweepName = {
  publish: 'publish',
  channelHealth: 'channel-health',
  webhooks: 'webhooks',
  metrics: 'metrics',
  metricsRetention: 'metrics-retention',
  personal: 'personal-models',
  series: 'series',
} as const;

export type SweepName = (typeof SweepName)[keyof typeof SweepName];

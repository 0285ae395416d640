import type { Config } from '../config/config.ts';
import type { Backlog, Metrics } from './types.ts';

export type { Backlog, Metrics } from './types.ts';

const nothing = () => {};

export const noopMetrics: Metrics = {
  enabled: false,
  httpRequest: nothing,
  publishSettled: nothing,
  claimsRecovered: nothing,
  webhookAttempt: nothing,
  sweepRun: nothing,
  engineRun: nothing,
  cacheLookup: nothing,
  toolCall: nothing,
  storeError: nothing,
  render: async () => ({ contentType: 'text/plain', body: '' }),
};

/** Where metrics are served: their own port, the main port behind a token, or nowhere. */
export function metricsExposure(config: Config): 'port' | 'token' | null {
  if (config.METRICS_PORT !== undefined) return 'port';
  if (config.METRICS_TOKEN !== undefined) return 'token';
  return null;
}

/**
 * The process's metrics: no-ops when not served, otherwise prom-client (loaded only then) with
 * `readBacklog` collected from the database on each scrape.
 */
export async function openMetrics(config: Config, readBacklog: () => Promise<Backlog>): Promise<Metrics> {
  if (!metricsExposure(config)) return noopMetrics;
  const { createPrometheusMetrics } = await import('./prometheus.ts');
  return createPrometheusMetrics(readBacklog);
}

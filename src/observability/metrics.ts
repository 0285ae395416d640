import type { Config } from '../config/config.ts';
import type { Backlog } from './backlog.ts';

/**
 * What the service records for operators (GET /metrics, Prometheus text). Code records through
 * `deps.metrics`; when metrics are not served (no METRICS_PORT, no METRICS_TOKEN) every method is
 * a no-op and prom-client is never loaded, so a deployment that does not scrape pays nothing.
 */
export interface Metrics {
  readonly enabled: boolean;
  /** One HTTP request: its route pattern (`/v1/posts/:id`, `unmatched`), status, duration. */
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  /** A publish the sweep settled; a published scheduled post's lateness is `publishedAt - scheduledFor`. */
  publishSettled(outcome: string, row?: { scheduledFor: number | null; publishedAt: number | null }): void;
  /** Publish claims taken over from a dead process (lease lapsed). */
  claimsRecovered(count: number): void;
  /** One webhook attempt recorded: `delivered`, `failed` (retried later) or `dead`; how late it went out. */
  webhookAttempt(outcome: string, lateMs: number | null): void;
  /** One sweep run: how long after its planned time it started, how long it took, whether it threw. */
  sweepRun(sweep: string, lagMs: number, durationMs: number, failed: boolean): void;
  /** An intelligence operation computed by the engine (a cache miss): heuristic or a model. */
  engineRun(operation: string, engine: string, ok: boolean): void;
  /** A lookup in the intelligence result cache. */
  cacheLookup(operation: string, hit: boolean): void;
  /** A key-value store call that failed (Redis down, or the in-process store). */
  storeError(store: string, operation: string): void;
  /** The exposition; collects the database gauges first. */
  render(): Promise<{ contentType: string; body: string }>;
}

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

import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Backlog, Metrics } from './types.ts';

/**
 * The metric definitions, on a registry of the process's own (never prom-client's global one:
 * tests run several services in one process). Loaded only when metrics are served.
 */

const LATENESS_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600];
const SWEEP_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

export function createPrometheusMetrics(readBacklog: () => Promise<Backlog>): Metrics {
  const registers = [new Registry()];
  const [registry] = registers as [Registry];
  collectDefaultMetrics({ register: registry });

  const http = new Histogram({
    name: 'postkit_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const publishLateness = new Histogram({
    name: 'postkit_publish_lateness_seconds',
    help: 'Scheduled posts published by the sweep: published time minus scheduled time.',
    buckets: LATENESS_BUCKETS,
    registers,
  });
  const publishes = new Counter({
    name: 'postkit_publishes_total',
    help: 'Publishes settled by the sweep, by outcome (published, failed, retrying, lost).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const recovered = new Counter({
    name: 'postkit_publish_claims_recovered_total',
    help: 'Publish claims taken over after their process stopped renewing them.',
    registers,
  });
  const webhookAttempts = new Counter({
    name: 'postkit_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome: delivered, failed (retried later), dead (given up).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const webhookLateness = new Histogram({
    name: 'postkit_webhook_lateness_seconds',
    help: 'Webhook attempts: time sent minus time due.',
    buckets: LATENESS_BUCKETS,
    registers,
  });
  const sweepLag = new Histogram({
    name: 'postkit_sweep_lag_seconds',
    help: 'How long after its planned time each sweep run started.',
    labelNames: ['sweep'] as const,
    buckets: SWEEP_BUCKETS,
    registers,
  });
  const sweepDuration = new Histogram({
    name: 'postkit_sweep_duration_seconds',
    help: 'How long each sweep run took.',
    labelNames: ['sweep'] as const,
    buckets: SWEEP_BUCKETS,
    registers,
  });
  const sweepFailures = new Counter({
    name: 'postkit_sweep_failures_total',
    help: 'Sweep runs that threw (logged as "sweep failed").',
    labelNames: ['sweep'] as const,
    registers,
  });
  const engineRuns = new Counter({
    name: 'postkit_engine_runs_total',
    help: 'Intelligence operations computed (cache misses), by operation, engine and outcome.',
    labelNames: ['operation', 'engine', 'outcome'] as const,
    registers,
  });
  const cacheLookups = new Counter({
    name: 'postkit_intelligence_cache_lookups_total',
    help: 'Intelligence result cache lookups by operation and result (hit, miss).',
    labelNames: ['operation', 'result'] as const,
    registers,
  });
  const toolCalls = new Counter({
    name: 'postkit_mcp_tool_calls_total',
    help: 'Agent tool calls (MCP) by tool and outcome: ok, or the error code answered.',
    labelNames: ['tool', 'outcome'] as const,
    registers,
  });
  const storeErrors = new Counter({
    name: 'postkit_store_errors_total',
    help: 'Failed key-value store calls by store (redis, memory) and operation.',
    labelNames: ['store', 'operation'] as const,
    registers,
  });

  const gauge = (name: string, help: string) => new Gauge({ name, help, registers });
  const postsDue = gauge('postkit_posts_due', 'Scheduled posts due and not claimed yet.');
  const oldestDue = gauge(
    'postkit_posts_due_oldest_seconds',
    'How long the oldest unclaimed due post has waited (0 when none).',
  );
  const claimsLapsed = gauge(
    'postkit_publish_claims_lapsed',
    'Posts being published whose claim lease lapsed (holder died) and that no worker has taken over yet.',
  );
  const deliveriesDue = gauge('postkit_webhook_deliveries_due', 'Webhook deliveries whose attempt is due.');
  const endpointsFailing = gauge(
    'postkit_webhook_endpoints_failing',
    'Webhook endpoints with a delivery waiting to retry after a failed attempt.',
  );
  const channelsExpiring = new Gauge({
    name: 'postkit_channels_expiring',
    help: 'Connected channels that stop working within METRICS_EXPIRY_WARNING_HOURS unless reconnected.',
    labelNames: ['platform'] as const,
    registers,
  });
  const collectErrors = new Counter({
    name: 'postkit_metrics_collect_errors_total',
    help: 'Scrapes whose database gauges could not be read (they read NaN then).',
    registers,
  });

  async function collect() {
    try {
      const b = await readBacklog();
      postsDue.set(b.postsDue);
      oldestDue.set((b.oldestDueMs ?? 0) / 1000);
      claimsLapsed.set(b.claimsLapsed);
      deliveriesDue.set(b.deliveriesDue);
      endpointsFailing.set(b.endpointsFailing);
      channelsExpiring.reset();
      for (const c of b.channelsExpiring) channelsExpiring.set({ platform: c.platform }, c.count);
    } catch {
      // A database outage shows on /v1/health; here it must not read as "no backlog".
      collectErrors.inc();
      for (const g of [postsDue, oldestDue, claimsLapsed, deliveriesDue, endpointsFailing]) g.set(Number.NaN);
      channelsExpiring.reset();
    }
  }

  return {
    enabled: true,
    httpRequest: (method, route, status, seconds) =>
      http.observe({ method, route, status: String(status) }, seconds),
    publishSettled(outcome, row) {
      publishes.inc({ outcome });
      if (outcome === 'published' && row?.scheduledFor != null && row.publishedAt != null)
        publishLateness.observe(Math.max(0, row.publishedAt - row.scheduledFor) / 1000);
    },
    claimsRecovered: (n) => {
      if (n > 0) recovered.inc(n);
    },
    webhookAttempt(outcome, lateMs) {
      webhookAttempts.inc({ outcome });
      if (lateMs !== null) webhookLateness.observe(Math.max(0, lateMs) / 1000);
    },
    sweepRun(sweep, lagMs, durationMs, failed) {
      sweepLag.observe({ sweep }, Math.max(0, lagMs) / 1000);
      sweepDuration.observe({ sweep }, durationMs / 1000);
      if (failed) sweepFailures.inc({ sweep });
    },
    engineRun: (operation, engine, ok) => engineRuns.inc({ operation, engine, outcome: ok ? 'ok' : 'error' }),
    cacheLookup: (operation, hit) => cacheLookups.inc({ operation, result: hit ? 'hit' : 'miss' }),
    toolCall: (tool, outcome) => toolCalls.inc({ tool, outcome }),
    storeError: (store, operation) => storeErrors.inc({ store, operation }),
    async render() {
      await collect();
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/** The metrics interface and what a scrape reads, apart from their implementations (no import cycle). */

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
  /**
   * One agent tool call: `ok` or the error code it answered. Over HTTP every call is a 200 (a
   * tool error is a result, not an HTTP error), so the request histogram cannot tell them apart.
   */
  toolCall(tool: string, outcome: string): void;
  /** A key-value store call that failed (Redis down, or the in-process store). */
  storeError(store: string, operation: string): void;
  /** The exposition; collects the database gauges first. */
  render(): Promise<{ contentType: string; body: string }>;
}

/** What a scrape reads from the database: the work waiting, and what will soon need a person. */
export interface Backlog {
  /** Scheduled posts whose time has come and that nobody has claimed yet. */
  postsDue: number;
  /** How long the oldest of them has been due, in ms (null when none is). */
  oldestDueMs: number | null;
  /**
   * Posts being published whose claim lease lapsed (the holder died or hangs) and that no worker
   * has taken over yet. They are not due (they are claimed), so `postsDue` does not show them.
   */
  claimsLapsed: number;
  /** Webhook deliveries whose attempt is due. */
  deliveriesDue: number;
  /** Endpoints with a delivery whose last attempt failed and that waits for its retry. */
  endpointsFailing: number;
  /** Connected channels, per platform, that stop working within METRICS_EXPIRY_WARNING_HOURS unless reconnected. */
  channelsExpiring: { platform: string; count: number }[];
}

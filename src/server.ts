import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { AuthCache } from './api/auth-cache.ts';
import { BudgetLeases } from './api/budget-leases.ts';
import { apiRoutes } from './compose/routes.ts';
import { sweeps } from './compose/sweeps.ts';
import type { Config } from './config/config.ts';
import type { AppDeps, ProcessMemory } from './context.ts';
import { openDatabase } from './db/client.ts';
import { prepareKeyLookup } from './features/keys/key-lookup.ts';
import { createSentWriter } from './features/posts/publishing/claims.ts';
import { finalWriter } from './features/posts/publishing/outcome-writer.ts';
import { readBacklog } from './features/system/backlog.ts';
import { createWebhookDispatcher } from './features/webhooks/safe-dispatcher.ts';
import { type App, buildApp } from './http/app.ts';
import { AuthThrottle } from './http/auth-throttle.ts';
import { type MetricsServer, startMetricsServer } from './http/metrics-endpoint.ts';
import { type Runner, startRunner } from './jobs/runner.ts';
import { openKv } from './kv/open.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { createLogger } from './lib/logger.ts';
import { countStoreErrors } from './observability/kv.ts';
import { openMetrics } from './observability/metrics.ts';
import { createPlatforms, type PlatformOverrides } from './platforms/registry.ts';
import { openEngine } from './scoring/index.ts';
import { openStorage } from './storage/open.ts';
import { vaultFromConfig } from './vault/vault.ts';
import { createWakeHub, type WakeHub } from './wake/wake.ts';
import { wakeOnCommit } from './wake/wake-on-commit.ts';
import { createWakeRelay } from './wake/wake-relay.ts';

export interface DepsOptions {
  log?: Logger;
  clock?: Clock;
  /** Namespaces this process's keys in a shared Redis (tests use one per app). */
  kvPrefix?: string;
  /** Adapter settings tests and benchmarks override (timeouts, sleep). */
  platformOverrides?: PlatformOverrides;
  /** Where `deps.wake` goes; a runner started on the same hub receives the wakes. */
  wakeHub?: WakeHub;
}

/** Opens every dependency once; the order matters only in that the database migrates first. */
export async function createDeps(config: Config, options: DepsOptions = {}): Promise<AppDeps> {
  const log = options.log ?? createLogger(config.LOG_LEVEL, undefined, config.LOG_FORMAT);
  const wakeHub = options.wakeHub ?? createWakeHub();
  // Built first: a bad vault key fails startup before any pool is opened.
  const vault = vaultFromConfig(config);
  const platforms = createPlatforms(config, options.platformOverrides);
  // Also built before any pool: a provider missing its model or key fails startup clearly.
  const engine = await openEngine(config);
  const clock = options.clock ?? systemClock;
  // Scrapes read the backlog from the database opened below; nothing scrapes before it is.
  const metrics = await openMetrics(config, () => readBacklog({ db: database.db, clock, config }));
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolMax: config.DATABASE_POOL_MAX,
  });
  let kv: AppDeps['kv'];
  try {
    kv = await openKv({ url: config.REDIS_URL, prefix: options.kvPrefix });
  } catch (err) {
    await database.close();
    throw err;
  }
  // Wakes asked for inside a transaction (an event's deliveries) fire once it commits: the
  // handle carries the process's wake, and each transaction the wakes it queued.
  const db = wakeOnCommit(database.db, wakeHub.wake);
  const store = countStoreErrors(kv, metrics);
  return {
    config,
    database,
    db,
    kv: store,
    log,
    clock,
    storage: openStorage(config),
    instanceId: `${process.pid}-${randomUUID().slice(0, 8)}`,
    vault,
    engine,
    platforms,
    webhookDispatcher: createWebhookDispatcher({
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
      allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    }),
    clientMetadataDispatcher: createWebhookDispatcher({
      allowPrivate: false,
      allowLoopback: config.OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK,
      timeoutMs: config.OAUTH_CLIENT_METADATA_TIMEOUT_MS,
      connectionsPerOrigin: 4,
      ca: config.OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK ? config.OAUTH_CLIENT_METADATA_TEST_CA : undefined,
    }),
    wake: wakeHub.wake,
    authCache: new AuthCache(config.AUTH_CACHE_TTL_MS, clock.now),
    metrics,
    memory: createMemory(config, { db, kv: store, clock }),
  };
}

/**
 * Everything this process keeps in memory between requests and sweep runs, beside its
 * connections and the key cache: the one list to read for what a process holds (ProcessMemory,
 * context.ts). No module keeps any of it in a variable of its own.
 */
function createMemory(config: Config, deps: Pick<AppDeps, 'db' | 'kv' | 'clock'>): ProcessMemory {
  return {
    // Rate budget units reserved in the store and spent without a round trip (api/budget-leases.ts).
    budgetLeases: new BudgetLeases(deps.kv),
    // The auth hook's (http/auth.ts): failed authentications per address and keys known not to
    // exist, lookups in flight by key digest, each key's budgets (by digest, and by cached caller).
    authThrottle: new AuthThrottle(config.AUTH_FAILURES_PER_MIN, deps.clock.now),
    keyLookupsInFlight: new Map(),
    keyBudgets: new Map(),
    budgetsByCaller: new WeakMap(),
    // The key lookup as a prepared statement (features/keys/key-lookup.ts).
    keyLookup: prepareKeyLookup(deps.db),
    // whoami's JSON per cached key snapshot (features/account/account.routes.ts).
    whoamiJson: new WeakMap(),
    // The latest model-backed results, in front of the store (features/account/metered.ts).
    hotResults: new Map(),
    // Each account's personal model as last read (features/history/personal-models.ts).
    personalModels: new Map(),
    // Publishing's group commits (features/posts/publishing): first sends, terminal outcomes.
    createSentWrites: createSentWriter(deps),
    finalWrites: finalWriter(deps),
    // Crash recovery's listing of each channel's recent posts, shared by its look-ups (channel-listing.ts).
    channelListings: new Map(),
    // When this process last pruned metric snapshots (features/metrics/retention.sweep.ts).
    lastPrune: null,
    // Access tokens the vault opened in the last minute (features/channels/channel-tokens.ts).
    openedTokens: new Map(),
  };
}

export interface Service {
  deps: AppDeps;
  /** Present when the role serves HTTP (api, all). */
  app: App | null;
  /** Present when the role runs sweeps (worker, all). */
  runner: Runner | null;
  /** Where `deps.wake` goes: a runner started on it (`startRunner(..., { wakeHub })`) is woken. */
  wakeHub: WakeHub;
  /** The listening address, e.g. http://127.0.0.1:8080. */
  url: string | null;
  /** Where GET /metrics is served when METRICS_PORT is set, e.g. http://127.0.0.1:9464. */
  metricsUrl: string | null;
  /** Graceful: stop accepting, finish in-flight requests and claimed jobs, close pools. */
  close(): Promise<void>;
}

export interface StartOptions extends DepsOptions {
  /** Listen on HOST:PORT (default true); tests may use app.inject instead. */
  listen?: boolean;
  /** Start the sweep timer (default true); tests may drive `runner.runOnce()` instead. */
  autoStartRunner?: boolean;
}

export async function startService(config: Config, options: StartOptions = {}): Promise<Service> {
  // Made before both so the dependencies get `wake` at construction and the runner listens on it.
  const wakeHub = options.wakeHub ?? createWakeHub();
  const deps = await createDeps(config, { ...options, wakeHub });
  const servesHttp = config.KIT_ROLE !== 'worker';
  const runsSweeps = config.KIT_ROLE !== 'api';
  let app: App | null = null;
  let runner: Runner | null = null;
  let url: string | null = null;
  let metricsServer: MetricsServer | null = null;
  // On a PostgreSQL server, wakes also travel to the other processes (LISTEN/NOTIFY).
  const relay =
    deps.database.kind === 'postgres' && config.DATABASE_URL
      ? createWakeRelay({ url: config.DATABASE_URL, db: deps.db, origin: deps.instanceId, log: deps.log })
      : null;
  if (relay) wakeHub.listen(relay.send);
  try {
    metricsServer = await startMetricsServer(deps);
    if (runsSweeps) {
      const autoStart = options.autoStartRunner !== false;
      runner = startRunner(deps, sweeps, { autoStart, wakeHub, acrossProcesses: relay ?? undefined });
      if (relay && autoStart) await relay.receive(runner.wake);
    }
    if (servesHttp) {
      app = await buildApp(deps, apiRoutes);
      if (options.listen !== false) url = await app.listen({ port: config.PORT, host: config.HOST });
      else await app.ready();
    }
  } catch (err) {
    await runner?.stop();
    await relay?.close();
    await app?.close();
    await metricsServer?.close();
    await deps.webhookDispatcher.close();
    await deps.clientMetadataDispatcher.close();
    await deps.kv.close();
    await deps.database.close();
    throw err;
  }
  let closing: Promise<void> | null = null;
  return {
    deps,
    app,
    runner,
    wakeHub,
    url,
    metricsUrl: metricsServer?.url ?? null,
    close() {
      closing ??= (async () => {
        await app?.close();
        await runner?.stop();
        await relay?.close();
        await metricsServer?.close();
        await deps.webhookDispatcher.close();
        await deps.clientMetadataDispatcher.close();
        await deps.kv.close();
        await deps.database.close();
      })();
      return closing;
    },
  };
}

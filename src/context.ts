import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Dispatcher } from 'undici';
import type { AuthCache } from './api/auth-cache.ts';
import type { BudgetLeases } from './api/budget-leases.ts';
import type { Caller } from './caller.ts';
import type { Config } from './config/config.ts';
import type { Database, Db } from './db/client.ts';
import type { KvStore } from './kv/kv.ts';
import type { Clock } from './lib/clock.ts';
import type { Metrics } from './observability/types.ts';
import type { Platform } from './platforms/platform.ts';
import type { Engine } from './scoring/index.ts';
import type { MediaStorage } from './storage/storage.ts';
import type { Vault } from './vault/vault.ts';
import type { Wake } from './wake/wake.ts';

/**
 * Everything a service verb may use, built once per process in `src/server.ts`.
 * Feature areas add their collaborators here (vault, platforms, model provider, storage...).
 */
export interface AppDeps {
  config: Config;
  database: Database;
  db: Db;
  kv: KvStore;
  log: Logger;
  clock: Clock;
  /** Uploaded media bytes: DATA_DIR or an S3-compatible bucket. */
  storage: MediaStorage;
  /** The only HTTP client for webhook deliveries: refuses private targets at connect time. */
  webhookDispatcher: Dispatcher;
  /** The HTTP client for OAuth client ID metadata documents: the webhooks' address guard, its own limits. */
  clientMetadataDispatcher: Dispatcher;
  /** Identifies this process in claims and logs. */
  instanceId: string;
  /** The token vault; null when KIT_VAULT_KEY is unset (channel routes answer 503). */
  vault: Vault | null;
  /** The intelligence engine: offline heuristic or the configured model provider (LLM_*). */
  engine: Engine;
  /** Publishing adapters by platform id; a platform without app credentials is absent. */
  platforms: ReadonlyMap<string, Platform>;
  /**
   * Asks this process's sweep runner to run a sweep at `atMs` (default now); a no-op in an
   * `api`-only process, where the workers find due rows by themselves (src/wake/wake.ts).
   */
  wake: Wake;
  /** Recently authenticated keys; revocations evict from it in every process. */
  authCache: AuthCache;
  /** Operator metrics (GET /metrics); no-ops unless METRICS_PORT or METRICS_TOKEN is set. */
  metrics: Metrics;
  /** What this process keeps in memory between calls (ProcessMemory, below). */
  memory: ProcessMemory;
}

/**
 * What a process keeps in memory between requests and sweep runs, beside the connections and
 * the key cache above: caches, batched writers, a prepared statement, throttles, leased budget
 * units. All of it is made in createDeps (src/server.ts), the one place to read what a process
 * keeps; no module keeps any of it in a variable of its own. An entry whose owner sits above
 * this file is declared beside its code (`declare module '…/context.ts'`, the compiler then
 * requires createDeps to make it), so this file imports nothing from above it. Memos of
 * constant data (scoring's per-model tables) are not state and stay with their code.
 */
export interface ProcessMemory {
  /** Rate budget units this process has reserved in the store (src/api/budget-leases.ts). */
  budgetLeases: BudgetLeases;
}

/** Context for public verbs (no caller yet), e.g. account creation. */
export interface PublicCtx {
  deps: AppDeps;
  requestId: string;
  log: Logger;
}

export interface Ctx extends PublicCtx {
  caller: Caller;
}

/** Service verbs take one argument: `{ctx, input}`. */
export interface Call<I, C = Ctx> {
  ctx: C;
  input: I;
}

export type { Caller } from './caller.ts';

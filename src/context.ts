import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Config } from './config/config.ts';
import type { Database, Db } from './db/client.ts';
import type { KvStore } from './kv/kv.ts';
import type { Clock } from './lib/clock.ts';

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
  /** Identifies this process in claims and logs. */
  instanceId: string;
  /**
   * Asks this process's sweep runner to run a sweep at `atMs` (default now); a no-op in an
   * `api`-only process, where the workers find due rows by themselves.
   */
  wake(sweepName: string, atMs?: number): void;
}

/** The caller of a service verb: an API key's account, or a worker acting for an account. */
export interface Caller {
  accountId: string;
  /** The calling key; null when a worker acts. */
  keyId: string | null;
  plan: string;
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

import { killAll, type Role, type ServiceProcess, spawnService } from '../helpers/processes.ts';
import { type PostWorld, startPostWorld } from '../posts/world.ts';

/**
 * The world of the multi-process and fault tests: the sandbox platform, a PostgreSQL database
 * and Redis, an in-process API (the test's own window on the database, used to sign up and
 * connect channels, never running sweeps) and any number of real service processes sharing
 * that database, Redis namespace, vault key, media directory and sandbox.
 */
export const SERVERS = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

export interface ProcessWorld extends PostWorld {
  /** The environment every child of this world gets, plus `extra`. */
  env(extra?: Record<string, string>): Record<string, string | undefined>;
  /** Starts `src/main.ts` with this role and the world's environment. */
  spawn(role: Role, extra?: Record<string, string>): Promise<ServiceProcess>;
}

export async function startProcessWorld(
  options: { childEnv?: Record<string, string> } = {},
): Promise<ProcessWorld> {
  const w = await startPostWorld({ env: { KIT_ROLE: 'api', WEBHOOK_ALLOW_PRIVATE: 'true' } });
  const env = (extra: Record<string, string> = {}) => ({
    DATABASE_URL: w.t.config.DATABASE_URL,
    REDIS_URL: process.env.REDIS_URL,
    KIT_VAULT_KEY: w.vaultKey,
    ...w.sandbox.platformA.env(w.redirectUri),
    PLATFORMA_BACKOFF_SCALE: '0.001',
    DATA_DIR: w.dataDir,
    SWEEP_INTERVAL_MS: '1000',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    ...options.childEnv,
    ...extra,
  });
  return {
    ...w,
    env,
    spawn: (role, extra) => spawnService(role, env(extra)),
    async close() {
      await killAll();
      await w.close();
    },
  };
}

export { until } from '../helpers/until.ts';

/** The pid part of a claim token (`<pid>-<uuid>:<random>`): which process claimed a post. */
export const claimerPid = (claimedBy: string | null) => (claimedBy ? Number(claimedBy.split('-')[0]) : null);

import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import type { Database, Db } from './database.ts';
import { type ResilienceOptions, resilientClient } from './resilient-postgres.ts';
import * as schema from './schema/index.ts';

/** A PostgreSQL server (DATABASE_URL): a resilient pool, migrated under an advisory lock. */

/** Any constant works; all processes agree on it so that only one migrates at a time. */
const MIGRATION_LOCK_ID = 727_274_001;
const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Server-side bound on one statement: a slow but live query fails with an error instead of
 * holding a request (and a connection) for as long as it runs.
 */
const STATEMENT_TIMEOUT_MS = 5_000;
/** A transaction left open by a frozen or killed process releases its locks after this. */
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 30_000;
/** Client-side bounds for a server that stops answering (resilient-postgres.ts). */
const RESILIENCE: ResilienceOptions = {
  stallMs: 1_000,
  probeTimeoutMs: 1_000,
  recheckMs: 250,
  hardDeadlineMs: STATEMENT_TIMEOUT_MS + 2_000,
};

export async function openPostgres(url: string, max: number): Promise<Database> {
  let first: postgres.Sql | undefined;
  const createPool = () => {
    const pool = postgres(url, {
      max,
      onnotice: () => {},
      // postgres.js sends its own array-type query as a new connection's first statement and
      // drops that query's promise (porsager/postgres#1192): a connection destroyed while it is in
      // flight (a stalled pool being replaced) rejects it unhandled. No column or parameter here is
      // an array, so the query is skipped (test/hardening/postgres-startup-fault.test.ts). Without
      // it a new connection's `reserve()` never resolves (postgres.js 3.4.9): this pool never
      // reserves; the migration client, which does, keeps the default.
      fetch_types: false,
      // A refused or silent server fails a connection attempt fast instead of holding the request.
      connect_timeout: 2,
      // Reconnect within a quarter second once the server is back (the default grows to 20 s).
      backoff: (retries: number) => Math.min(0.25, 0.02 * 2 ** retries),
      connection: {
        statement_timeout: STATEMENT_TIMEOUT_MS,
        idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
      },
    });
    // A replacement pool parses and serializes exactly as drizzle configured the first one.
    if (first) {
      Object.assign(pool.options.parsers, first.options.parsers);
      Object.assign(pool.options.serializers, first.options.serializers);
    } else first = pool;
    return pool;
  };
  const probe = async () => {
    const conn = postgres(url, {
      max: 1,
      onnotice: () => {},
      fetch_types: false,
      connect_timeout: 1,
      backoff: () => 0,
    });
    try {
      await conn`select 1`;
    } finally {
      void conn.end({ timeout: 0 }).catch(() => {});
    }
  };
  const resilient = resilientClient(createPool, probe, RESILIENCE);
  const db = drizzlePostgres({ client: resilient.client, schema }) as unknown as Db;
  await migrateUnderLock(url);
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => resilient.close(),
  };
}

/**
 * Migrations run on their own connections without the statement timeout (a migration may
 * legitimately take longer). Several processes may start together: one migrates, the others
 * wait on the lock.
 */
async function migrateUnderLock(url: string) {
  // Default options: it reserves a connection for the lock, which needs fetch_types (see above).
  const client = postgres(url, { max: 2, onnotice: () => {} });
  try {
    const lockConn = await client.reserve();
    try {
      await lockConn`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
      await migratePostgres(drizzlePostgres({ client, schema }) as never, { migrationsFolder });
    } finally {
      await lockConn`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`.catch(() => {});
      lockConn.release();
    }
  } finally {
    await client.end({ timeout: 5 });
  }
}

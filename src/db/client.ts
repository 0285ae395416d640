import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** One type for both drivers: services never know which one is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle has the same query surface as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Round-trips a trivial query; used by the readiness probe. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
/** Any constant works; all processes agree on it so that only one migrates at a time. */
const MIGRATION_LOCK_ID = 727_274_001;

export interface DatabaseOptions {
  /** postgres:// URL; absent means embedded PGlite. */
  url?: string;
  /** PGlite data directory; absent (or `url` = memory://) means in-memory. */
  dataDir?: string;
  poolMax?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url && options.url !== 'memory://') return openPostgres(options.url, options.poolMax ?? 10);
  return openPglite(options.url === 'memory://' ? undefined : options.dataDir);
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  let client: PGlite;
  if (dataDir) {
    const dir = resolve(dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir);
  } else {
    client = new PGlite();
  }
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      await client.close();
    },
  };
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const client = postgres(url, {
    max,
    onnotice: () => {},
    // Fail a query fast while the server is unreachable, instead of holding the request.
    connect_timeout: 3,
  });
  const db = drizzlePostgres({ client, schema }) as unknown as Db;
  // Several processes may start together: one migrates, the others wait on the lock.
  const lockConn = await client.reserve();
  try {
    await lockConn`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await migratePostgres(db as never, { migrationsFolder });
  } finally {
    await lockConn`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`.catch(() => {});
    lockConn.release();
  }
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      await client.end({ timeout: 5 });
    },
  };
}

import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema/index.ts';

/** The database as services see it, whichever driver is underneath (client.ts opens it). */

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

import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';
import { type ReusableStatement, reusableStatement } from '../db/reusable-statement.ts';

/** A table whose rows a sweep claims. */
export type ClaimableTable = PgTable;

/** The column that identifies a row: `id` unless the table has none (then name it). */
type KeyOption<T> = T extends { id: PgColumn } ? { key?: PgColumn } : { key: PgColumn };

export type ClaimBatch<T extends ClaimableTable> = KeyOption<T> & {
  table: T;
  /**
   * The rows that may be claimed now: due ones, and those whose lease lapsed (their holder
   * died). Claimed rows must stop matching it (through `set`), or the next claim retakes them.
   */
  where: SQL | undefined;
  /** Which claimable rows go first, e.g. oldest due first. */
  orderBy: SQL | PgColumn | (SQL | PgColumn)[];
  limit: number;
  /** What claiming writes: a status, a lease deadline or claim time, a claim token. */
  set: PgUpdateSetSource<T>;
  /** A table whose columns `where` reads (e.g. the post's channel); its rows are not locked. */
  join?: { table: PgTable; on: SQL };
};

/**
 * Claims up to `limit` rows: locks them with FOR UPDATE SKIP LOCKED (rows another worker holds
 * are skipped, not waited for) and writes `set`, returning the claimed rows. Any number of
 * workers can claim side by side and never take the same row twice.
 *
 * One statement, so one round trip and no explicit transaction: the locking select is a
 * MATERIALIZED common table expression the UPDATE reads. Materialized, it runs exactly once;
 * as a plain subquery of the UPDATE, PostgreSQL may re-run it while updating and its LIMIT
 * stops holding, so one worker would claim every due row at once. Works the same on PGlite
 * and PostgreSQL.
 */
export async function claimBatch<T extends ClaimableTable>(
  db: DbOrTx,
  spec: ClaimBatch<T>,
): Promise<T['$inferSelect'][]> {
  return (await claimQuery(db, spec)) as T['$inferSelect'][];
}

/**
 * `claimBatch` built once (reusable-statement.ts), for a sweep's hot claim: `spec` holds
 * `sql.placeholder(name)` wherever a value changes from claim to claim (the time, the claim
 * token, the limit), and each run gives their values.
 */
export function claimBatchStatement<T extends ClaimableTable, V extends Record<string, unknown>>(
  name: string,
  spec: Omit<ClaimBatch<T>, 'limit'> & { limit: number | Placeholder },
): ReusableStatement<V, T['$inferSelect'][]> {
  return reusableStatement<V, T['$inferSelect'][]>(name, (handle) => claimQuery(handle, spec));
}

function claimQuery<T extends ClaimableTable>(
  db: DbOrTx,
  spec: Omit<ClaimBatch<T>, 'limit'> & { limit: number | Placeholder },
) {
  // Drizzle's builders cannot follow a generic table's columns; the spec's types are checked above.
  const table = spec.table as PgTable;
  const key = spec.key ?? (spec.table as unknown as { id: PgColumn }).id;
  if (!key) throw new TypeError('claimBatch: the table has no id column; name the key');
  const order = Array.isArray(spec.orderBy) ? spec.orderBy : [spec.orderBy];
  const from = db.select({ key }).from(table);
  const joined = spec.join ? from.innerJoin(spec.join.table, spec.join.on) : from;
  const locking = joined
    .where(spec.where)
    .orderBy(...order)
    .limit(spec.limit)
    .for('update', { of: table, skipLocked: true });
  return db
    .update(table)
    .set(spec.set as PgUpdateSetSource<typeof table>)
    .where(sql`${key} in (with picked as materialized ${locking} select * from picked)`)
    .returning();
}

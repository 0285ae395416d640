import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

/**
 * Batches as ONE statement parameter. A VALUES or IN list of n items is a new statement text
 * for every n: PostgreSQL parses and plans it again, and the client first asks it to describe
 * the new statement (one more round trip) before it can send the values. Sent as a JSON array
 * instead, a batch of any size is the same statement, prepared once per connection.
 */

/**
 * `rows` as a relation named `alias`: `columns` maps each column name to its SQL type (a
 * table column's `getSQLType()`), and each row gives plain JSON values for them (strings,
 * numbers, null; arrays and objects for jsonb). Use it where a table could go:
 * `update ... from ${jsonRows(...)}`, `select ... from ${jsonRows(...)}`.
 */
export function jsonRows(
  alias: string,
  columns: Record<string, string>,
  rows: Record<string, unknown>[],
): SQL {
  const names = Object.keys(columns);
  const defs = sql.join(
    names.map((name) => sql`${sql.identifier(name)} ${sql.raw(columns[name]!)}`),
    sql`, `,
  );
  const objects = rows.map((row) => Object.fromEntries(names.map((name) => [name, row[name] ?? null])));
  return sql`jsonb_to_recordset(${JSON.stringify(objects)}::jsonb) as ${sql.identifier(alias)}(${defs})`;
}

/** `column IN (values)` for text values, as one parameter. */
export function inTexts(column: PgColumn | SQL, values: readonly string[]): SQL {
  return sql`${column} in (select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
}

/**
 * Rows of `table` (keyed by its property names, every column given) as a query selecting all
 * its columns in order, for `db.insert(table).select(rowsOf(table, rows))`: an insert of any
 * number of rows as one prepared statement.
 */
export function rowsOf<T extends PgTable>(table: T, rows: Partial<T['$inferInsert']>[]): SQL {
  const columns = Object.entries(getTableColumns(table));
  const types = Object.fromEntries(columns.map(([, column]) => [column.name, column.getSQLType()]));
  const named = rows.map((row) =>
    Object.fromEntries(columns.map(([key, column]) => [column.name, (row as Record<string, unknown>)[key]])),
  );
  return sql`select * from ${jsonRows('batch_rows', types, named)}`;
}

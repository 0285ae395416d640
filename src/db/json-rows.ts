import { getTableColumns, type Placeholder, type SQL, sql } from 'drizzle-orm';
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
  return jsonRecordset(alias, columns, jsonRowsText(columns, rows));
}

/**
 * `jsonRows` with the rows given later: `json` is a placeholder (`sql.placeholder(name)`, in a
 * statement built once: reusable-statement.ts) whose value is `jsonRowsText(columns, rows)`.
 */
export function jsonRecordset(
  alias: string,
  columns: Record<string, string>,
  json: string | Placeholder,
): SQL {
  const names = Object.keys(columns);
  const defs = sql.join(
    names.map((name) => sql`${sql.identifier(name)} ${sql.raw(columns[name]!)}`),
    sql`, `,
  );
  return sql`jsonb_to_recordset(${json}::jsonb) as ${sql.identifier(alias)}(${defs})`;
}

/** The rows of `jsonRows` as the one JSON parameter: each row's value for every column, null if absent. */
export function jsonRowsText(columns: Record<string, string>, rows: Record<string, unknown>[]): string {
  const names = Object.keys(columns);
  return JSON.stringify(
    rows.map((row) => Object.fromEntries(names.map((name) => [name, row[name] ?? null]))),
  );
}

/** `column IN (values)` for text values, as one parameter. */
export function inTexts(column: PgColumn | SQL, values: readonly string[]): SQL {
  return inTextsOf(column, JSON.stringify(values));
}

/** `inTexts` with the values given later: `json` is a placeholder for `JSON.stringify(values)`. */
export function inTextsOf(column: PgColumn | SQL, json: string | Placeholder): SQL {
  return sql`${column} in (select jsonb_array_elements_text(${json}::jsonb))`;
}

/**
 * Rows of `table` (keyed by its property names, every column given) as a query selecting all
 * its columns in order, for `db.insert(table).select(rowsOf(table, rows))`: an insert of any
 * number of rows as one prepared statement.
 */
export function rowsOf<T extends PgTable>(table: T, rows: Partial<T['$inferInsert']>[]): SQL {
  return rowsFrom(table, rowsOfText(table, rows));
}

/** `rowsOf` with the rows given later: `json` is a placeholder for `rowsOfText(table, rows)`. */
export function rowsFrom(table: PgTable, json: string | Placeholder): SQL {
  return sql`select * from ${jsonRecordset('batch_rows', columnTypes(table), json)}`;
}

/** The rows of `rowsOf` as its one JSON parameter. */
export function rowsOfText<T extends PgTable>(table: T, rows: Partial<T['$inferInsert']>[]): string {
  const columns = Object.entries(getTableColumns(table));
  const named = rows.map((row) =>
    Object.fromEntries(columns.map(([key, column]) => [column.name, (row as Record<string, unknown>)[key]])),
  );
  return jsonRowsText(columnTypes(table), named);
}

const columnTypes = (table: PgTable): Record<string, string> =>
  Object.fromEntries(
    Object.values(getTableColumns(table)).map((column) => [column.name, column.getSQLType()]),
  );

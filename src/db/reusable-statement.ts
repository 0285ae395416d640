import type { PgSession } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './database.ts';

/**
 * A statement Drizzle builds once and runs many times, on the database or inside any
 * transaction.
 *
 * Drizzle builds a query's text on every call, walking its parts with `is()` checks that each
 * climb a prototype chain: a batched update of the posts table that returns its rows costs
 * about 150 µs of CPU to build, more than PostgreSQL takes to run it, and a burst of publishes
 * pays that for every group of outcomes. `.prepare()` builds once, but the prepared query is
 * bound to the handle that built it, so it cannot run in a transaction begun later. This builds
 * the text once, with `sql.placeholder(name)` for whatever varies, and runs it through the
 * session of the handle it is given, which maps the rows exactly as the builder's own execute
 * does (the same driver class, the same fields).
 *
 * Relies on what both drivers' prepared queries hold (the text, its parameters, the selected
 * fields, the row mapper): Drizzle's internals, pinned by package-lock.json and checked on
 * both drivers by test/db/reusable-statement.test.ts.
 */

/** What `.prepare()` returns, as far as this module reads it. */
interface Prepared<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/** The parts of a driver's prepared query that make it again on another session. */
interface BuiltParts {
  queryString: string;
  params: unknown[];
  fields: Parameters<PgSession['prepareQuery']>[1];
  _isResponseInArrayMode: boolean;
  customResultMapper?: Parameters<PgSession['prepareQuery']>[4];
  joinsNotNullableMap?: Record<string, boolean>;
}

export type ReusableStatement<V extends Record<string, unknown>, R> = (
  handle: DbOrTx,
  values: V,
) => Promise<R>;

/**
 * `build` makes the query from any handle (only its text is kept); `name` names the prepared
 * statement on PostgreSQL (postgres.js keeps one per connection and text). `R` is what the
 * builder's own execute returns (the drivers' shared type leaves it unknown).
 */
export function reusableStatement<V extends Record<string, unknown>, R>(
  name: string,
  build: (handle: DbOrTx) => { prepare(name: string): Prepared<unknown> },
): ReusableStatement<V, R> {
  let parts: BuiltParts | undefined;
  return (handle, values) => {
    parts ??= build(handle).prepare(name) as unknown as BuiltParts;
    const { session } = handle as unknown as { session: PgSession };
    const query = session.prepareQuery(
      { sql: parts.queryString, params: parts.params },
      parts.fields,
      name,
      parts._isResponseInArrayMode,
      parts.customResultMapper,
    ) as unknown as Prepared<R> & { joinsNotNullableMap?: Record<string, boolean> };
    query.joinsNotNullableMap = parts.joinsNotNullableMap;
    return query.execute(values);
  };
}

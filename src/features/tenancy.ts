import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Ctx } from '../context.ts';
import type { DbOrTx } from '../db/client.ts';
import { Invalid, NotFound } from '../domain/errors.ts';
import { type PageInfo, type PageRequest, paginate } from './pagination.ts';

/**
 * Every account-owned row is read through these helpers, so ownership is checked one way and
 * fails one way (docs/decisions.md, "Tenancy: 404 or 400"):
 * - an id in the path that is unknown or another account's: 404 `not_found` (requireOwned);
 * - an id in a body or query field that is unknown or another account's: 400 `invalid_request`
 *   whose detail names the field and says no such row belongs to the account (requireReference).
 * Another account's row is never told apart from a missing one.
 */

/** A table whose rows each belong to one account. */
export type OwnedTable = PgTable & { id: AnyPgColumn; accountId: AnyPgColumn; createdAt: AnyPgColumn };
type RowOf<T extends OwnedTable> = T['$inferSelect'];

/** Whose rows: a verb's context, or an account and a transaction (e.g. an OAuth callback). */
export type Owner = Ctx | { accountId: string; db: DbOrTx };

const scopeOf = (owner: Owner) =>
  'caller' in owner ? { accountId: owner.caller.accountId, db: owner.deps.db } : owner;

/** The row when it exists and belongs to the owner, else undefined. */
export async function findOwned<T extends OwnedTable>(
  owner: Owner,
  table: T,
  id: string,
): Promise<RowOf<T> | undefined> {
  const { accountId, db } = scopeOf(owner);
  const [row] = await db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.id, id), eq(table.accountId, accountId)));
  return row as RowOf<T> | undefined;
}

/** 404 for a path id (`what` is the resource name, e.g. 'Brand'). */
export const ownedNotFound = (what: string) => new NotFound(what);

/** 400 for a body or query field (`path`, e.g. 'brandId' or 'querystring.brandId') naming no row of the account. */
export const unknownReference = (what: string, path: string) => {
  const noun = what.toLowerCase();
  const field = path.slice(path.lastIndexOf('.') + 1);
  return new Invalid(`${field} does not name a ${noun} of this account.`, [
    { path, message: `No such ${noun} for this account` },
  ]);
};

/** The owner's row named by a path id, or 404. */
export async function requireOwned<T extends OwnedTable>(
  owner: Owner,
  table: T,
  id: string,
  what: string,
): Promise<RowOf<T>> {
  const row = await findOwned(owner, table, id);
  if (!row) throw ownedNotFound(what);
  return row;
}

/** The owner's row named by a body or query field, or 400 naming that field. */
export async function requireReference<T extends OwnedTable>(
  owner: Owner,
  table: T,
  id: string,
  ref: { what: string; path: string },
): Promise<RowOf<T>> {
  const row = await findOwned(owner, table, id);
  if (!row) throw unknownReference(ref.what, ref.path);
  return row;
}

const newestFirst = (table: OwnedTable) => [desc(table.createdAt), desc(table.id)] as const;

/** All of the owner's rows, newest first (ties broken by id), optionally narrowed by `where`. */
export async function listOwned<T extends OwnedTable>(
  owner: Owner,
  table: T,
  where?: SQL,
): Promise<RowOf<T>[]> {
  const { accountId, db } = scopeOf(owner);
  const rows = await db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.accountId, accountId), where))
    .orderBy(...newestFirst(table));
  return rows as RowOf<T>[];
}

/** One page of the owner's rows, newest first, with `hasMore`. */
export async function pageOwned<T extends OwnedTable>(
  owner: Owner,
  table: T,
  page: PageRequest,
  where?: SQL,
): Promise<{ items: RowOf<T>[]; pagination: PageInfo }> {
  const { accountId, db } = scopeOf(owner);
  return paginate(page, async (limit, offset) => {
    const rows = await db
      .select()
      .from(table as PgTable)
      .where(and(eq(table.accountId, accountId), where))
      .orderBy(...newestFirst(table))
      .limit(limit)
      .offset(offset);
    return rows as RowOf<T>[];
  });
}

import { and, asc, eq, gt, isNotNull, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { channels, oauthStates, webhooks } from '../db/schema/index.ts';
import { vaultAad } from './aad.ts';
import { type Vault, VaultError } from './vault.ts';

/** One sealed column: where it lives and what its values are bound to. */
interface SealedColumn {
  name: string;
  table: PgTable;
  id: PgColumn;
  sealed: PgColumn;
  /** The sealed column's property name in the drizzle table (for `set`). */
  key: string;
  aad(id: string): string;
}

/** Every column the vault writes. A new sealed column must be listed here to survive key rotation. */
export const SEALED_COLUMNS: SealedColumn[] = [
  {
    name: 'channels.access_token_sealed',
    table: channels,
    id: channels.id,
    sealed: channels.accessTokenSealed,
    key: 'accessTokenSealed',
    aad: (id) => vaultAad.channelToken(id, 'access'),
  },
  {
    name: 'channels.refresh_token_sealed',
    table: channels,
    id: channels.id,
    sealed: channels.refreshTokenSealed,
    key: 'refreshTokenSealed',
    aad: (id) => vaultAad.channelToken(id, 'refresh'),
  },
  {
    name: 'oauth_states.code_verifier_sealed',
    table: oauthStates,
    id: oauthStates.stateHash,
    sealed: oauthStates.codeVerifierSealed,
    key: 'codeVerifierSealed',
    aad: (hash) => vaultAad.oauthVerifier(hash),
  },
  {
    name: 'webhooks.secret_sealed',
    table: webhooks,
    id: webhooks.id,
    sealed: webhooks.secretSealed,
    key: 'secretSealed',
    aad: (id) => vaultAad.webhookSecret(id),
  },
];

export interface ColumnReport {
  column: string;
  /** Non-null values looked at. */
  scanned: number;
  /** Re-sealed under the current key by this run. */
  resealed: number;
  /** Already under the current key. */
  current: number;
  /** Values that are not vault values (left untouched). */
  foreign: number;
  /** Values that did not open (unknown key, tampered, misbound); listed by row id in `failedIds`. */
  failed: number;
  failedIds: string[];
}

const PAGE = 200;

/**
 * Re-seals every stale value of every sealed column under the vault's current key. Each
 * write is a compare-and-set on the old sealed text, so a value changed concurrently (a
 * token refresh, a disconnect wiping it) is never overwritten. Safe to re-run: values
 * already under the current key are skipped. Nothing secret is logged or returned.
 */
export async function resealAll(db: Db, vault: Vault): Promise<ColumnReport[]> {
  const reports: ColumnReport[] = [];
  for (const column of SEALED_COLUMNS) reports.push(await resealColumn(db, vault, column));
  return reports;
}

async function resealColumn(db: Db, vault: Vault, column: SealedColumn): Promise<ColumnReport> {
  const report: ColumnReport = {
    column: column.name,
    scanned: 0,
    resealed: 0,
    current: 0,
    foreign: 0,
    failed: 0,
    failedIds: [],
  };
  let after = '';
  for (;;) {
    const where: SQL | undefined = and(isNotNull(column.sealed), gt(column.id, after));
    const rows = (await db
      .select({ id: column.id, sealed: column.sealed })
      .from(column.table)
      .where(where)
      .orderBy(asc(column.id))
      .limit(PAGE)) as { id: string; sealed: string | null }[];
    for (const row of rows) {
      if (row.sealed === null) continue;
      report.scanned++;
      if (vault.kidOf(row.sealed) === null) {
        report.foreign++;
        continue;
      }
      if (!vault.isStale(row.sealed)) {
        report.current++;
        continue;
      }
      let plaintext: string;
      try {
        plaintext = vault.open(row.sealed, column.aad(row.id));
      } catch (err) {
        if (!(err instanceof VaultError)) throw err;
        report.failed++;
        report.failedIds.push(row.id);
        continue;
      }
      const resealed = vault.seal(plaintext, column.aad(row.id));
      const updated = await db
        .update(column.table)
        .set({ [column.key]: resealed } as never)
        .where(and(eq(column.id, row.id), eq(column.sealed, row.sealed)))
        .returning({ id: column.id });
      // A lost compare-and-set means the value was rewritten meanwhile, under the current key.
      if (updated.length > 0) report.resealed++;
      else report.current++;
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.id;
  }
  return report;
}

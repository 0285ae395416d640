import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database, Db } from './database.ts';
import { pgliteOptions } from './pglite-options.ts';
import { plantSeed } from './pglite-seed.ts';
import * as schema from './schema/index.ts';

export type { Database, Db, DbOrTx, Schema, Tx } from './database.ts';

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export interface DatabaseOptions {
  /** postgres:// URL; absent means embedded PGlite. */
  url?: string;
  /** PGlite data directory; absent (or `url` = memory://) means in-memory. */
  dataDir?: string;
  poolMax?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url && options.url !== 'memory://') {
    // The PostgreSQL driver loads only for a server (about 7 MB the embedded default never needs).
    const { openPostgres } = await import('./postgres.ts');
    return openPostgres(options.url, options.poolMax ?? 10);
  }
  return openPglite(options.url === 'memory://' ? undefined : options.dataDir);
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  let client: PGlite;
  if (dataDir) {
    const dir = resolve(dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    // A new database starts from the seed instead of running initdb (pglite-seed.ts).
    if (!existsSync(join(dir, 'PG_VERSION'))) plantSeed(dir);
    client = new PGlite(dir, pgliteOptions({ inMemory: false }));
  } else {
    client = new PGlite(pgliteOptions({ inMemory: true }));
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

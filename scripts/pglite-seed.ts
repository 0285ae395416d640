import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { installedPgliteVersion, SEED_FILE, SEED_INFO } from '../src/db/pglite-seed.ts';

/**
 * `node scripts/pglite-seed.ts`: writes src/db/pglite-seed/, the data directory PGlite's initdb
 * makes, so the embedded database starts from it instead of running initdb (see
 * src/db/pglite-seed.ts). Run it again after upgrading @electric-sql/pglite; until then the
 * old seed is ignored (and test/db/pglite-seed.test.ts fails, saying so).
 */
const version = installedPgliteVersion();
const db = new PGlite();
await db.waitReady;
const pgVersion = (await db.query<{ v: string }>("select current_setting('server_version') as v")).rows[0]!.v;
const dump = await db.dumpDataDir('gzip');
await db.close();
mkdirSync(dirname(SEED_FILE), { recursive: true });
writeFileSync(SEED_FILE, Buffer.from(await dump.arrayBuffer()));
writeFileSync(
  SEED_INFO,
  `${JSON.stringify({ pgliteVersion: version, postgresVersion: pgVersion }, null, 2)}\n`,
);
console.log(`wrote ${SEED_FILE} (${dump.size} bytes) for PGlite ${version}, PostgreSQL ${pgVersion}`);

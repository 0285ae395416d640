import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteOptions } from '../src/db/pglite-options.ts';
import { plantSeed } from '../src/db/pglite-seed.ts';

/** bench/memory's baseline: PGlite opened on a fresh directory as the service opens it, then idle. */
const dir = join(process.argv[2]!, 'pglite');
plantSeed(dir);
const db = new PGlite(dir, pgliteOptions({ inMemory: false }));
await db.waitReady;
await db.query('select 1');
console.log('bare pglite ready');
setInterval(() => {}, 60_000);

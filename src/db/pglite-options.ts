import v8 from 'node:v8';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { usableSeed } from './pglite-seed.ts';

/**
 * How the embedded database (PGlite) is started, sized for one process on a small machine.
 * bench/memory.ts measures each setting below and opens its bare PGlite the same way.
 */

/**
 * PostgreSQL's defaults reserve a server's worth of buffers; PGlite touches all 128 MB of the
 * default shared buffers at start-up. 16 MB holds this schema's hot pages.
 */
const SETTINGS = [
  'shared_buffers=16MB',
  'max_connections=4',
  'wal_buffers=1MB',
  'temp_buffers=2MB',
  'work_mem=2MB',
  'maintenance_work_mem=16MB',
];

/**
 * PGlite is PostgreSQL compiled to WebAssembly (9 MB of code). V8 compiles it with its baseline
 * compiler (Liftoff), then recompiles hot functions with its optimising compiler: for this
 * module that recompilation costs about 450 MB of resident memory (the parser and the executor
 * are huge functions) and made no measurable difference to the embedded database's queries.
 * Baseline only, set before the module is compiled; the process compiles no other WebAssembly.
 */
function baselineWasmOnly() {
  for (const flag of ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering'])
    v8.setFlagsFromString(flag);
}

/**
 * `inMemory`: a throwaway database (tests, `DATABASE_URL=memory://`), started from the seed
 * (pglite-seed.ts) when there is one. A data directory is seeded on disk by the caller.
 */
export function pgliteOptions({ inMemory }: { inMemory: boolean }): PGliteOptions {
  baselineWasmOnly();
  const seed = inMemory ? usableSeed() : undefined;
  return {
    startParams: [...PGlite.defaultStartParams, ...SETTINGS.flatMap((setting) => ['-c', setting])],
    ...(seed ? { loadDataDir: new Blob([seed]) } : {}),
  };
}

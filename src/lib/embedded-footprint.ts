import v8 from 'node:v8';

/**
 * The embedded default is the one-process, small-machine deployment (a trial on a 1 GB VM):
 * V8 favours memory over speed there. Loading the service's modules alone grew the heap to
 * 220 MB of mostly garbage (Node parses a package's package.json again for each of its modules,
 * 180 KB for drizzle-orm's); with this the heap grows in small steps and collects as it goes.
 * Called by main.ts before it loads the rest of the service, so this module imports nothing
 * else. Servers (DATABASE_URL) keep V8's defaults, which favour throughput.
 */
export function embeddedFootprint() {
  v8.setFlagsFromString('--optimize-for-size');
}

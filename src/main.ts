import { parseConfigOrReport } from './config/config.ts';
import { isDependencyOutage } from './domain/dependency-outage.ts';
import { embeddedFootprint } from './lib/embedded-footprint.ts';
import { drainLogs } from './lib/log-sink.ts';
import { keepTickObjectShape } from './lib/tick-object-shape.ts';

/** How long a stopping process gives queued log lines to be written; logs never hold it longer. */
const LOG_DRAIN_MS = 500;

/** Exits after giving the log sink a bounded moment: a stalled log reader cannot delay the exit. */
function exitSoon(code: number): void {
  void drainLogs(LOG_DRAIN_MS).finally(() => process.exit(code));
}

/** The only place that reads process.env: parse once, pass down. */
async function main() {
  // First, before anything can run a memory-reducing collection (src/lib/tick-object-shape.ts).
  keepTickObjectShape();
  // A write to a pipe whose reader is gone fails with EPIPE; that is never a reason to stop.
  process.stdout.on('error', () => {});
  process.stderr.on('error', () => {});
  const config = parseConfigOrReport(process.env);
  if (!config) process.exit(1);
  // Before the rest of the service is loaded: module loading is most of start-up's heap.
  if (!config.DATABASE_URL || config.DATABASE_URL === 'memory://') embeddedFootprint();
  const { startService } = await import('./server.ts');

  const service = await startService(config);
  const { log } = service.deps;
  log.info(
    {
      url: service.url,
      role: config.KIT_ROLE,
      database: service.deps.database.kind,
      kv: service.deps.kv.kind,
      docs: service.url ? `${service.url}/docs` : undefined,
      metrics: service.metricsUrl ? `${service.metricsUrl}/metrics` : undefined,
    },
    'postkit started',
  );

  // One plain line whatever the log level, for people and for scripts waiting on startup.
  if (service.url) process.stdout.write(`postkit listening on ${service.url} (docs: ${service.url}/docs)\n`);
  else process.stdout.write(`postkit worker started (role ${config.KIT_ROLE})\n`);

  let shuttingDown = false;
  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log.info({ signal }, 'draining');
    // The deadline holds whatever logging does: log writes never block (src/lib/log-sink.ts),
    // and at the deadline the process exits without waiting for them at all.
    const force = setTimeout(() => {
      log.error('drain took too long; exiting');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS);
    force.unref();
    service
      .close()
      .then(() => {
        log.info('stopped');
        exitSoon(0);
      })
      .catch((err) => {
        log.error({ err }, 'error while stopping');
        exitSoon(1);
      });
  };
  // A dependency outage can surface as a rejection no caller owns (the database driver rejects a
  // connection attempt made on its own behalf). That is an outage, not a bug: log it and keep
  // serving; the health check reports it and claimed work is retried. Anything else is a bug:
  // log it and stop, as Node would.
  process.on('unhandledRejection', (err) => {
    if (isDependencyOutage(err)) {
      log.error({ err }, 'dependency outage outside any request (kept running)');
      return;
    }
    log.fatal({ err }, 'unhandled rejection');
    exitSoon(1);
  });
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`postkit failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfigOrReport } from '../src/config/config.ts';
import { SANDBOX_PLATFORMS, startSandbox } from '../src/sandbox/sandbox.ts';
import { startService } from '../src/server.ts';
import { ensureConsoleBuilt } from './ensure-console.ts';
import { startWebhookInbox } from './lib/webhook-inbox.ts';

/**
 * `npm run demo`: everything a newcomer needs in one process: the sandbox platforms, the API
 * pointed at every one of them (their <ID>_* variables), a development
 * vault key generated once and kept under DATA_DIR, the web console, and a webhook receiver that
 * shows what it received (with WEBHOOK_ALLOW_LOOPBACK on, so the Webhooks page can reach it).
 * Ctrl-C stops everything.
 * Any variable already set wins, so
 * `PORT=8081 npm run demo` or `DATABASE_URL=… npm run demo` work as usual.
 */
const env = process.env;
const DEFAULT_SANDBOX_PORT = 9400;
const DEFAULT_INBOX_PORT = 9401;

/** The development vault key: read from DATA_DIR, or generated there once (mode 600). */
function devVaultKey(dataDir: string): string {
  const file = join(dataDir, 'dev-vault-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}

async function sandboxOnFreePort() {
  try {
    return await startSandbox({ port: DEFAULT_SANDBOX_PORT, autoApprove: false });
  } catch (err) {
    if ((err as { code?: string }).code !== 'EADDRINUSE') throw err;
    return startSandbox({ port: 0, autoApprove: false });
  }
}

async function inboxOnFreePort() {
  try {
    return await startWebhookInbox({ port: DEFAULT_INBOX_PORT });
  } catch (err) {
    if ((err as { code?: string }).code !== 'EADDRINUSE') throw err;
    return startWebhookInbox({ port: 0 });
  }
}

async function main() {
  ensureConsoleBuilt();
  const dataDir = env.DATA_DIR || './data';
  const host = env.HOST || '127.0.0.1';
  const port = env.PORT || '8080';
  if (port === '0') throw new Error('the demo needs a fixed PORT (its OAuth callback address names it)');
  const base = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;

  const sandbox = await sandboxOnFreePort();
  const inbox = await inboxOnFreePort();
  const config = parseConfigOrReport({
    // Webhooks can be tried here: receivers on this machine are let in, and one is served.
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    WEBHOOK_DEMO_RECEIVER_URL: inbox.url,
    LOG_LEVEL: 'warn',
    // Poll metrics every minute instead of hourly, so Analytics fills while you watch.
    METRICS_MIN_POLL_INTERVAL_MS: '60000',
    ...env,
    HOST: host,
    PORT: port,
    DATA_DIR: dataDir,
    KIT_VAULT_KEY: env.KIT_VAULT_KEY || devVaultKey(dataDir),
    // Every platform the sandbox emulates, each with its callback on this demo's address.
    ...sandbox.envFor(base),
  });
  if (!config) {
    await Promise.all([sandbox.close(), inbox.close()]);
    process.exit(2);
  }
  const service = await startService(config).catch(async (err) => {
    await Promise.all([sandbox.close(), inbox.close()]);
    if ((err as { code?: string }).code === 'EADDRINUSE')
      throw new Error(`port ${port} is taken: stop what uses it, or run PORT=8081 npm run demo`);
    throw err;
  });

  process.stdout.write(
    [
      '',
      '  Postkit demo is running.',
      '',
      `  Console:        ${base}/            <- open this in your browser`,
      `  API reference:  ${base}/docs`,
      `  Sandbox (consent pages, published posts): ${sandbox.url}/  (${SANDBOX_PLATFORMS.join(' and ')})`,
      `  Webhook receiver (what it received): ${inbox.url.replace(/\/hooks$/, '/')}  (add it on the Webhooks page)`,
      '',
      "  Sign up in the console, connect a sandbox channel (press Approve on platformA's consent page,",
      "  Authorize app on platformB's), write a post, score it, schedule it and watch it publish.",
      `  Data: ${dataDir} (vault key in ${join(dataDir, 'dev-vault-key')}). The sandbox forgets its`,
      '  state on exit: after a restart, reconnect the channel. Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    Promise.allSettled([service.close(), sandbox.close(), inbox.close()]).then(() => process.exit(0));
    setTimeout(() => process.exit(1), config.SHUTDOWN_GRACE_MS).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  process.stderr.write(`demo failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

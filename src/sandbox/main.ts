import { parseArgs } from 'node:util';
import { SANDBOX_PLATFORMS, startSandbox } from './sandbox.ts';

/**
 * `npm run sandbox [-- --port 9400 --auto-approve --postkit-url http://127.0.0.1:8080]`:
 * runs every platform's emulator (one port) and prints the variables that point Postkit at it.
 * Options come from the command line (src/main.ts stays the only reader of the environment).
 */
const HELP = `Usage: npm run sandbox -- [options]
  --port <n>            listen port (default 9400; 0 = any free port)
  --host <addr>         listen address (default 127.0.0.1)
  --postkit-url <url>   where Postkit runs, for its OAuth callback (default http://127.0.0.1:8080)
  --auto-approve        skip the consent page (redirect back at once)
  --client-id <id>      platformA app client id (default sandbox-client)
  --client-secret <s>   platformA app client secret (default sandbox-secret)
  --help`;

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '9400' },
      host: { type: 'string', default: '127.0.0.1' },
      'postkit-url': { type: 'string', default: 'http://127.0.0.1:8080' },
      'auto-approve': { type: 'boolean', default: false },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be 0-65535');
  const postkit = values['postkit-url'].replace(/\/+$/, '');
  const sandbox = await startSandbox({
    port,
    host: values.host,
    autoApprove: values['auto-approve'],
    platformA: { clientId: values['client-id'], clientSecret: values['client-secret'] },
  });
  const env = sandbox.envFor(postkit);
  const lines = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  process.stdout.write(
    [
      `${SANDBOX_PLATFORMS.join(' and ')} sandbox listening on ${sandbox.url}  (posts: ${sandbox.url}/ , state: ${SANDBOX_PLATFORMS.map((id) => `${sandbox.url}/_sandbox/${id}/state`).join(' and ')})`,
      `Consent: ${values['auto-approve'] ? 'auto-approve' : 'a page with an Approve button'}.`,
      '',
      'Start Postkit with these variables (plus a vault key, e.g. KIT_VAULT_KEY=$(openssl rand -base64 32)):',
      '',
      ...lines.map((l) => `  ${l}`),
      '',
      `  e.g.  ${lines.join(' ')} KIT_VAULT_KEY=$(openssl rand -base64 32) npm start`,
      '',
    ].join('\n'),
  );
  const stop = () => {
    sandbox.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  process.stderr.write(`sandbox failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

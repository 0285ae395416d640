import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { classifyAddress } from './address-policy.ts';
import { isLoopbackHost } from './webhook-url.ts';

/** Raised at connect time when a webhook target is (or resolves to) a refused address. */
export class BlockedTargetError extends Error {
  readonly code = 'ERR_WEBHOOK_TARGET_BLOCKED';
  /**
   * The refusal without the address a name resolved to: what the account may read in its
   * delivery log (an internal address behind a name is the operator's business, not theirs).
   */
  readonly summary: string;
  constructor(message: string, summary = message) {
    super(message);
    this.name = 'BlockedTargetError';
    this.summary = summary;
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, order: 'verbatim' });

/**
 * Resolves a host once and judges every address it has; the connection then goes to the
 * checked address, so a DNS answer cannot change between the check and the connect
 * (rebinding). One refused address refuses the host: a name that also points inward is
 * not a legitimate webhook target.
 */
export async function resolveTarget(
  hostname: string,
  options: { allowPrivate: boolean; allowLoopback?: boolean; resolver?: Resolver },
): Promise<ResolvedAddress> {
  const family = isIP(hostname);
  const addresses = family
    ? [{ address: hostname, family }]
    : await (options.resolver ?? systemResolver)(hostname);
  if (addresses.length === 0) throw new BlockedTargetError(`${hostname} did not resolve to any address`);
  // WEBHOOK_ALLOW_LOOPBACK: `localhost` or a loopback literal may reach loopback, and only that.
  const loopbackHost = options.allowLoopback === true && isLoopbackHost(hostname);
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const category = classifyAddress(address);
      if (category !== 'public' && !(loopbackHost && category === 'loopback')) {
        const shown = family ? address : `${hostname} resolves to ${address}, which`;
        const rule = 'webhooks only reach public hosts';
        throw new BlockedTargetError(
          `${shown} is a ${category} address; ${rule}`,
          family ? undefined : `${hostname} resolves to a ${category} address; ${rule}`,
        );
      }
    }
  }
  return addresses[0]!;
}

export interface WebhookDispatcherOptions {
  /** WEBHOOK_ALLOW_PRIVATE: lift the address policy (tests and local development only). */
  allowPrivate: boolean;
  /** WEBHOOK_ALLOW_LOOPBACK: let receivers on this machine in (localhost, 127.0.0.1, ::1), nothing else. */
  allowLoopback?: boolean;
  /** WEBHOOK_TIMEOUT_MS: connect, headers and body each get at most this long. */
  timeoutMs: number;
  /** Tests substitute DNS; production uses the system resolver. */
  resolver?: Resolver;
  /** Concurrent connections per receiver origin. */
  connectionsPerOrigin?: number;
  /** Certificate authorities trusted instead of the system's (a test's own certificate). */
  ca?: string;
}

/**
 * The only HTTP client webhook deliveries use. Its connector checks the destination when
 * the socket is opened (not only when the URL was registered), for every new connection,
 * including ones a keep-alive pool opens later. Redirects are never followed: undici's
 * `request` does not follow them, and a 3xx is recorded as a failed attempt.
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): Agent {
  const direct = buildConnector({ timeout: options.timeoutMs, ...(options.ca ? { ca: options.ca } : {}) });
  const connect: buildConnector.connector = (opts, callback) => {
    resolveTarget(opts.hostname, options).then(
      (target) => {
        // Keep the name for TLS (SNI and certificate checks) while dialling the checked address.
        const servername = opts.servername || (isIP(opts.hostname) ? undefined : opts.hostname);
        direct({ ...opts, hostname: target.address, servername }, callback);
      },
      (err: Error) => callback(err, null),
    );
  };
  return new Agent({
    connect,
    connections: options.connectionsPerOrigin ?? 16,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 4_000,
  });
}

import { isIP } from 'node:net';
import { Invalid } from '../../domain/errors.ts';
import { classifyAddress } from './address-policy.ts';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Names that only ever mean "this machine or its private network" (RFC 6761, 6762, 8375). */
const PRIVATE_NAME_SUFFIXES = ['.localhost', '.local', '.localdomain', '.internal', '.home.arpa', '.lan'];

const refuse = (message: string) => new Invalid(message, [{ path: 'url', message }]);

/**
 * A loopback receiver as WEBHOOK_ALLOW_LOOPBACK lets one in: the name `localhost` or a loopback
 * address (127.0.0.0/8, ::1). Any other name is judged as usual, even one that resolves to
 * loopback, so the setting opens this machine and nothing else.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = (hostname.startsWith('[') ? hostname.slice(1, -1) : hostname).toLowerCase().replace(/\.$/, '');
  if (host === 'localhost') return true;
  return isIP(host) !== 0 && classifyAddress(host) === 'loopback';
}

/**
 * Checks a webhook URL when it is registered, so an obviously unreachable or inward-pointing
 * target fails fast with a clear 400. This is a courtesy, not the defence: DNS can change
 * after registration, so the delivery client checks the resolved address again at connect
 * time (safe-dispatcher.ts). Returns the normalized URL.
 */
export function validateWebhookUrl(raw: string, allowPrivate: boolean, allowLoopback = false): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('`url` must be an absolute URL such as https://example.com/hooks/postkit.');
  }
  if (url.href.length > MAX_WEBHOOK_URL_LENGTH)
    throw refuse(`\`url\` must be at most ${MAX_WEBHOOK_URL_LENGTH} characters.`);
  const loopback = allowLoopback && isLoopbackHost(url.hostname);
  const allowedProtocols = allowPrivate || loopback ? ['https:', 'http:'] : ['https:'];
  if (!allowedProtocols.includes(url.protocol))
    throw refuse(
      allowLoopback && url.protocol === 'http:'
        ? `\`url\` must use https:// (got http://); plain http:// is allowed only to this machine (localhost or 127.0.0.1).`
        : `\`url\` must use https:// (got ${url.protocol}//).`,
    );
  if (url.username || url.password)
    throw refuse('`url` must not carry credentials; deliveries are authenticated by their signature.');
  if (url.hash) throw refuse('`url` must not contain a #fragment; receivers never see it.');
  if (allowPrivate || loopback) return url.href;

  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host)) {
    const category = classifyAddress(host);
    if (category !== 'public')
      throw refuse(`\`url\` points at ${host}, a ${category} address; webhooks only reach public hosts.`);
    return url.href;
  }
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || PRIVATE_NAME_SUFFIXES.some((suffix) => name.endsWith(suffix)))
    throw refuse(`\`url\` host ${name} is a local or private name; webhooks only reach public hosts.`);
  // A single-label name resolves through the server's search domains to internal hosts.
  if (!name.includes('.'))
    throw refuse(`\`url\` host ${name} is not a fully qualified domain name; use a public host name.`);
  return url.href;
}

import { createHash } from 'node:crypto';
import { request } from 'undici';
import type { PublicCtx } from '../../context.ts';
import { oauthClients } from '../../db/schema/index.ts';
import { OAuthRefused } from '../../domain/errors.ts';
import { BlockedTargetError } from '../webhooks/safe-dispatcher.ts';
import { checkClientMetadata, findClient, MAX_CLIENT_ID } from './clients.service.ts';

/*
 * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document), the way the MCP
 * revision of 2026-07-28 prefers a client to name itself: its client_id is an https URL, and the
 * JSON document served there is its registration. Postkit fetches it through the webhooks'
 * address guard (public addresses only, checked at connect time, no redirects followed), within
 * a time and a size limit, and keeps it as an oauth_clients row whose id is the URL, so grants,
 * tokens and connected apps treat both kinds of client alike. The row is trusted for as long as
 * the document's HTTP caching headers allow (a marker in the shared store says so), then the
 * document is fetched again and the row follows it.
 */

/** Trusted this long when the document says nothing about caching (RFC 9111 leaves it to the cache). */
export const DEFAULT_FRESHNESS_MS = 5 * 60_000;
/** Never trusted longer than this, whatever the document says: a client's change shows within a day. */
export const MAX_FRESHNESS_MS = 24 * 3_600_000;

/** A client_id that names a metadata document rather than a registration. */
export const isMetadataClientId = (clientId: string) => clientId.startsWith('https://');

/** Why this URL cannot be a client_id (the draft's section 3), or null when it can. */
export function clientIdUrlProblem(clientId: string): string | null {
  if (clientId.length > MAX_CLIENT_ID) return `The client_id URL is longer than ${MAX_CLIENT_ID} characters.`;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return `The client_id ${clientId} is not a URL.`;
  }
  if (url.protocol !== 'https:') return `The client_id ${clientId} must be an https URL.`;
  if (url.username || url.password) return `The client_id ${clientId} carries credentials; it must not.`;
  if (url.hash) return `The client_id ${clientId} has a fragment (#…); it must not.`;
  if (url.pathname === '/') return `The client_id ${clientId} must have a path, such as /client.json.`;
  // Compared as strings everywhere, so only the normalised spelling is accepted (no dot segments).
  if (url.href !== clientId) return `The client_id ${clientId} is not in its normal form; use ${url.href}.`;
  return null;
}

const freshKey = (clientId: string) =>
  `oauth:cimd:${createHash('sha256').update(clientId).digest('base64url')}`;

/** How long a response may be reused, from Cache-Control, Age and Expires (RFC 9111 section 4.2.1). */
export function freshnessMs(headers: Record<string, string | string[] | undefined>, now: number): number {
  const one = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  const directives = (one('cache-control') ?? '')
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache')) return 0;
  const maxAge = directives.find((d) => d.startsWith('max-age='));
  let ms: number;
  if (maxAge) {
    const seconds = Number(maxAge.slice('max-age='.length).replace(/"/g, ''));
    if (!Number.isFinite(seconds)) return 0;
    const age = Number(one('age') ?? 0);
    ms = (seconds - (Number.isFinite(age) ? age : 0)) * 1000;
  } else if (one('expires') !== undefined) {
    const expires = Date.parse(one('expires')!);
    const date = Date.parse(one('date') ?? '');
    if (Number.isNaN(expires)) return 0;
    ms = expires - (Number.isNaN(date) ? now : date);
  } else ms = DEFAULT_FRESHNESS_MS;
  return Math.max(0, Math.min(ms, MAX_FRESHNESS_MS));
}

const isJsonType = (contentType: string | undefined) => {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
};

/** Why the document could not be used: said to the person at the sign-in page. */
class DocumentProblem extends Error {}

async function fetchDocument(ctx: PublicCtx, clientId: string) {
  const { config } = ctx.deps;
  const limit = config.OAUTH_CLIENT_METADATA_MAX_BYTES;
  const seconds = Math.ceil(config.OAUTH_CLIENT_METADATA_TIMEOUT_MS / 1000);
  let res: Awaited<ReturnType<typeof request>>;
  try {
    res = await request(clientId, {
      method: 'GET',
      dispatcher: ctx.deps.clientMetadataDispatcher,
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(config.OAUTH_CLIENT_METADATA_TIMEOUT_MS),
    });
  } catch (err) {
    throw new DocumentProblem(reachProblem(err, seconds));
  }
  try {
    if (res.statusCode !== 200)
      throw new DocumentProblem(
        res.statusCode >= 300 && res.statusCode < 400
          ? `it answered with a redirect (${res.statusCode}), which is not followed; serve the document at the client_id itself.`
          : `it answered ${res.statusCode} instead of 200.`,
      );
    const contentType = res.headers['content-type'];
    if (!isJsonType(Array.isArray(contentType) ? contentType[0] : contentType))
      throw new DocumentProblem('it is not served as application/json.');
    const declared = Number(res.headers['content-length']);
    if (declared > limit) throw new DocumentProblem(`it is larger than ${limit} bytes.`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > limit) throw new DocumentProblem(`it is larger than ${limit} bytes.`);
      chunks.push(chunk as Buffer);
    }
    let document: unknown;
    try {
      document = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      throw new DocumentProblem('it is not valid JSON.');
    }
    return { document, ttlMs: freshnessMs(res.headers, ctx.deps.clock.now()) };
  } catch (err) {
    // Stop reading what is left; the abort this raises on the stream is expected, not news.
    res.body.on('error', () => {});
    res.body.destroy();
    if (err instanceof DocumentProblem) throw err;
    throw new DocumentProblem(reachProblem(err, seconds));
  }
}

function reachProblem(err: unknown, seconds: number): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  if (cause instanceof BlockedTargetError || (err instanceof Error && err.name === 'BlockedTargetError'))
    return 'its address is not a public one, and Postkit fetches documents only from public hosts.';
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
    return `it did not answer within ${seconds} second${seconds === 1 ? '' : 's'}.`;
  return 'the connection to it failed.';
}

function checkDocument(clientId: string, document: unknown) {
  if (document === null || typeof document !== 'object' || Array.isArray(document))
    throw new DocumentProblem('it is not a JSON object.');
  const raw = document as Record<string, unknown>;
  if (raw.client_id !== clientId) throw new DocumentProblem('its client_id is not the URL it is served at.');
  if ('client_secret' in raw || 'client_secret_expires_at' in raw)
    throw new DocumentProblem('it declares a client secret, which a public document cannot keep.');
  try {
    return checkClientMetadata(raw);
  } catch (err) {
    if (err instanceof OAuthRefused) throw new DocumentProblem(lowerFirst(err.message));
    throw err;
  }
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

export type MetadataClientResult = { client: typeof oauthClients.$inferSelect } | { problem: string };

/**
 * The client a metadata document describes: the stored row while it is fresh, else the document
 * fetched, checked and stored again. A document that cannot be fetched or used ends the sign-in
 * (the draft's section 4: the request is aborted), with the reason for the person to pass on.
 */
export async function resolveMetadataClient(ctx: PublicCtx, clientId: string): Promise<MetadataClientResult> {
  const urlProblem = clientIdUrlProblem(clientId);
  if (urlProblem) return { problem: urlProblem };
  if (await ctx.deps.kv.get(freshKey(clientId))) {
    const client = await findClient(ctx, clientId);
    if (client) return { client };
  }
  try {
    const { document, ttlMs } = await fetchDocument(ctx, clientId);
    const meta = checkDocument(clientId, document);
    const values = { name: meta.name, redirectUris: meta.redirectUris, clientUri: meta.clientUri };
    const [client] = await ctx.deps.db
      .insert(oauthClients)
      .values({ id: clientId, ...values, createdAt: ctx.deps.clock.now() })
      .onConflictDoUpdate({ target: oauthClients.id, set: values })
      .returning();
    if (ttlMs > 0) await ctx.deps.kv.set(freshKey(clientId), '1', ttlMs);
    return { client: client! };
  } catch (err) {
    if (!(err instanceof DocumentProblem)) throw err;
    ctx.log.info({ clientId, problem: err.message }, 'oauth client metadata document refused');
    return {
      problem: `Postkit could not use this app's client metadata document at ${clientId}: ${err.message} Nothing was shared; the app's developer can fix the document.`,
    };
  }
}

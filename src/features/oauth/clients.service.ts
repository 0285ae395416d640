import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { eq } from 'drizzle-orm';
import type { PublicCtx } from '../../context.ts';
import { oauthClients } from '../../db/schema/index.ts';
import { OAuthRefused } from '../../domain/errors.ts';
import { newId } from '../../lib/ids.ts';

/** Loopback hosts a native or CLI agent listens on (RFC 8252 section 7.3); plain http is allowed only there. */
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);
export const MAX_REDIRECT_URIS = 10;
const MAX_NAME = 100;
/** Registered ids are short; a metadata document's URL may be longer, up to this. */
export const MAX_CLIENT_ID = 2_048;

const invalidRedirect = (message: string) => new OAuthRefused('invalid_redirect_uri', message);
const invalidMetadata = (message: string) => new OAuthRefused('invalid_client_metadata', message);

/** Why a redirect URI cannot be registered, or null when it can. */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URL.`;
  }
  if (url.hash) return `${uri} has a fragment (#…); redirect URIs must not (RFC 6749 section 3.1.2).`;
  if (url.username || url.password) return `${uri} carries credentials; remove them.`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return null;
  if (url.protocol === 'http:')
    return `${uri} uses plain http on a host other than this machine; use https, or http://127.0.0.1 / http://localhost for an app on the same computer.`;
  return `${uri} uses ${url.protocol.replace(/:$/, '')}; only https (or http on 127.0.0.1, [::1] or localhost) redirect URIs are accepted.`;
}

export interface RegisteredClient {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  client_uri?: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: 'none';
  scope?: string;
}

/** What Postkit keeps of a client's metadata, from a registration or a metadata document. */
export interface CheckedClientMetadata {
  name: string;
  clientUri: string | null;
  redirectUris: string[];
  grantTypes: string[];
  responseTypes: string[];
  scope: string | undefined;
}

/**
 * The checks every client's metadata passes (RFC 7591 section 2), whether it was posted to the
 * registration endpoint or fetched from the client's metadata document: redirect URIs Postkit
 * can send a browser to, a public client ("none"), and only the grants and responses offered.
 */
export function checkClientMetadata(body: unknown): CheckedClientMetadata {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw invalidMetadata('Send the client metadata as a JSON object (RFC 7591 section 2).');
  const raw = body as Record<string, unknown>;
  if (!Array.isArray(raw.redirect_uris) || raw.redirect_uris.length === 0)
    throw invalidRedirect('redirect_uris must list at least one redirect URI.');
  if (raw.redirect_uris.length > MAX_REDIRECT_URIS)
    throw invalidRedirect(`At most ${MAX_REDIRECT_URIS} redirect URIs may be registered.`);
  for (const uri of raw.redirect_uris) {
    const problem =
      typeof uri === 'string' ? redirectUriProblem(uri) : 'Every redirect URI must be a string.';
    if (problem) throw invalidRedirect(problem);
  }
  const parsed = OAuthClientMetadataSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidMetadata(`${issue?.path.join('.') || 'metadata'}: ${issue?.message ?? 'invalid'}.`);
  }
  const meta = parsed.data;
  const method = meta.token_endpoint_auth_method ?? 'none';
  if (method !== 'none')
    throw invalidMetadata(
      `token_endpoint_auth_method ${method} is not offered: Postkit accepts public clients only ("none"), which prove themselves with PKCE.`,
    );
  const grantTypes = meta.grant_types ?? ['authorization_code', 'refresh_token'];
  const unsupportedGrant = grantTypes.find((g) => g !== 'authorization_code' && g !== 'refresh_token');
  if (unsupportedGrant)
    throw invalidMetadata(
      `grant_type ${unsupportedGrant} is not offered; use authorization_code and refresh_token.`,
    );
  const responseTypes = meta.response_types ?? ['code'];
  if (responseTypes.some((r) => r !== 'code'))
    throw invalidMetadata('Only the response type "code" is offered.');
  return {
    name: (meta.client_name ?? '').trim().slice(0, MAX_NAME) || new URL(meta.redirect_uris[0]!).host,
    clientUri: meta.client_uri && /^https?:/.test(meta.client_uri) ? meta.client_uri : null,
    redirectUris: meta.redirect_uris,
    grantTypes,
    responseTypes,
    scope: meta.scope,
  };
}

/**
 * RFC 7591 registration of a public client (no secret: agents run on people's machines, where
 * a secret could not stay one). Anyone may register; a registration grants nothing until an
 * account approves it on the consent page.
 */
export async function registerClient(ctx: PublicCtx, body: unknown): Promise<RegisteredClient> {
  const meta = checkClientMetadata(body);
  const now = ctx.deps.clock.now();
  const [row] = await ctx.deps.db
    .insert(oauthClients)
    .values({
      id: newId('oauthClient'),
      name: meta.name,
      redirectUris: meta.redirectUris,
      clientUri: meta.clientUri,
      createdAt: now,
    })
    .returning();
  return {
    client_id: row!.id,
    client_id_issued_at: Math.floor(now / 1000),
    client_name: row!.name,
    ...(meta.clientUri ? { client_uri: meta.clientUri } : {}),
    redirect_uris: row!.redirectUris,
    grant_types: meta.grantTypes,
    response_types: meta.responseTypes,
    token_endpoint_auth_method: 'none',
    ...(meta.scope ? { scope: meta.scope } : {}),
  };
}

/** A client Postkit knows: registered, or named by a metadata document it has fetched. */
export async function findClient(ctx: PublicCtx, clientId: string) {
  if (clientId.length > MAX_CLIENT_ID) return undefined;
  const [row] = await ctx.deps.db.select().from(oauthClients).where(eq(oauthClients.id, clientId));
  return row;
}

import { redirectUriMatches } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { requireScopeSet } from '../../caller.ts';
import type { Call, PublicCtx } from '../../context.ts';
import { oauthGrants, oauthTokens } from '../../db/schema/index.ts';
import { Invalid, NotFound } from '../../domain/errors.ts';
import { isScope, normalizeScopes, SCOPE_WORDS, SCOPES, type Scope } from '../../domain/scopes.ts';
import { newId } from '../../lib/ids.ts';
import { isMetadataClientId, resolveMetadataClient } from './client-metadata.ts';
import { findClient } from './clients.service.ts';
import { CODE_TTL_MS, isS256Challenge, newSecret, REQUEST_TTL_MS, secretDigest } from './oauth-secrets.ts';

/*
 * The authorization-code flow's front half. GET /oauth/authorize validates the client's request
 * and parks it in the store under an id for ten minutes; the console's consent page (signed in
 * with the account's key, as every console page is) reads it, and the person approves or
 * denies. Only then is a grant and a single-use code made, and the browser sent back.
 */

interface PendingRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: Scope[];
  state: string | null;
  resource: string;
  expiresAt: number;
}

const storeKey = (id: string) => `oauth:req:${id}`;

/** The result of checking an authorization request. */
export type AuthorizeOutcome =
  /** Park it and show the consent page. */
  | { kind: 'consent'; requestId: string }
  /** A problem with the client or its redirect URI: shown to the person, never redirected (RFC 6749 section 4.1.2.1). */
  | { kind: 'page'; message: string }
  /** Any other problem: back to the client's redirect URI with `error`. */
  | { kind: 'redirect'; location: string };

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

export function redirectWith(redirectUri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value != null) url.searchParams.set(name, value);
  return url.toString();
}

export async function startAuthorization(
  ctx: PublicCtx,
  query: Record<string, unknown>,
  resource: string,
): Promise<AuthorizeOutcome> {
  const clientId = str(query.client_id);
  if (!clientId)
    return {
      kind: 'page',
      message: 'The app did not say who it is (client_id is missing). Start again from the app.',
    };
  // An https client_id names a metadata document; any other is a dynamic registration's id.
  const byDocument = isMetadataClientId(clientId);
  let client: Awaited<ReturnType<typeof findClient>>;
  if (byDocument) {
    const resolved = await resolveMetadataClient(ctx, clientId);
    if ('problem' in resolved) return { kind: 'page', message: resolved.problem };
    client = resolved.client;
  } else client = await findClient(ctx, clientId);
  if (!client)
    return {
      kind: 'page',
      message:
        'This app is not registered with Postkit (unknown client_id), or its registration was removed. Remove Postkit from the app and add it again.',
    };
  const requested = str(query.redirect_uri);
  let redirectUri: string | undefined;
  if (requested === undefined)
    redirectUri = client.redirectUris.length === 1 ? client.redirectUris[0] : undefined;
  // A document's redirect URIs are enforced exactly; a registration's loopback ones may change
  // port (RFC 8252 section 7.3), as a native app's listener does between runs.
  else if (
    client.redirectUris.some((registered) =>
      byDocument ? requested === registered : redirectUriMatches(requested, registered),
    )
  )
    redirectUri = requested;
  if (!redirectUri)
    return {
      kind: 'page',
      message: `${client.name} asked to return to an address it did not register (redirect_uri). Nothing was shared; start again from the app.`,
    };
  const state = str(query.state) ?? null;
  const fail = (error: string, description: string): AuthorizeOutcome => ({
    kind: 'redirect',
    location: redirectWith(redirectUri, { error, error_description: description, state }),
  });
  if (query.response_type !== 'code')
    return fail('unsupported_response_type', 'Only response_type=code is supported.');
  const challenge = str(query.code_challenge);
  if (!challenge)
    return fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256.');
  if (query.code_challenge_method !== 'S256')
    return fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted).');
  if (!isS256Challenge(challenge))
    return fail(
      'invalid_request',
      'code_challenge must be the base64url SHA-256 of the verifier (43 characters).',
    );
  const requestedResource = str(query.resource);
  if (requestedResource !== undefined && requestedResource.replace(/\/+$/, '') !== resource)
    return fail('invalid_target', `This server issues tokens only for its MCP endpoint, ${resource}.`);
  const scopeParam = str(query.scope)?.trim();
  const words = scopeParam ? scopeParam.split(/\s+/) : [...SCOPES];
  const unknown = words.filter((w) => !isScope(w));
  if (unknown.length)
    return fail('invalid_scope', `Unknown scope ${unknown.join(', ')}; the scopes are ${SCOPES.join(', ')}.`);
  const requestId = newId('oauthRequest');
  const pending: PendingRequest = {
    clientId: client.id,
    redirectUri,
    codeChallenge: challenge,
    scopes: normalizeScopes(words),
    state,
    resource,
    expiresAt: ctx.deps.clock.now() + REQUEST_TTL_MS,
  };
  await ctx.deps.kv.set(storeKey(requestId), JSON.stringify(pending), REQUEST_TTL_MS);
  return { kind: 'consent', requestId };
}

async function loadPending(ctx: PublicCtx, id: string): Promise<PendingRequest> {
  const raw = /^oar_[0-9A-Za-z]{20}$/.test(id) ? await ctx.deps.kv.get(storeKey(id)) : null;
  const pending = raw ? (JSON.parse(raw) as PendingRequest) : null;
  if (!pending || pending.expiresAt <= ctx.deps.clock.now())
    throw new NotFound(
      'Authorization request (it expires after 10 minutes, or was already answered; start again from the app)',
    );
  return pending;
}

export interface ConsentView {
  id: string;
  client: { id: string; name: string; uri: string | null };
  redirectHost: string;
  redirectUri: string;
  scopes: { scope: Scope; description: string }[];
  resource: string;
  expiresAt: number;
}

/** What the consent page shows: who asks, where the browser returns, what each scope allows. */
export async function describeRequest({ ctx, input }: Call<{ id: string }>): Promise<ConsentView> {
  const pending = await loadPending(ctx, input.id);
  const client = await findClient(ctx, pending.clientId);
  if (!client) throw new NotFound('Authorization request');
  return {
    id: input.id,
    client: { id: client.id, name: client.name, uri: client.clientUri },
    redirectHost: new URL(pending.redirectUri).host,
    redirectUri: pending.redirectUri,
    scopes: pending.scopes.map((scope) => ({ scope, description: SCOPE_WORDS[scope] })),
    resource: pending.resource,
    expiresAt: pending.expiresAt,
  };
}

/** Answers a request once: the first approve or deny wins, in every process. */
async function claim(ctx: PublicCtx, id: string): Promise<PendingRequest> {
  const pending = await loadPending(ctx, id);
  if (!(await ctx.deps.kv.setIfAbsent(`${storeKey(id)}:answered`, '1', REQUEST_TTL_MS)))
    throw new NotFound('Authorization request (already answered; start again from the app)');
  await ctx.deps.kv.del(storeKey(id));
  return pending;
}

/**
 * Approves for the signed-in account, with the requested scopes or fewer (the person may
 * untick some). The approving key must hold every scope it grants: no escalation through an app.
 */
export async function approveRequest({
  ctx,
  input,
}: Call<{ id: string; scopes?: Scope[] }>): Promise<{ redirectTo: string }> {
  const pending = await loadPending(ctx, input.id);
  const scopes = input.scopes ? normalizeScopes(input.scopes) : pending.scopes;
  const extra = scopes.filter((s) => !pending.scopes.includes(s));
  if (extra.length)
    throw new Invalid(`The app did not ask for ${extra.join(', ')}; approve only scopes it asked for.`, [
      { path: 'scopes', message: `Not requested: ${extra.join(', ')}` },
    ]);
  requireScopeSet(ctx.caller, scopes, 'Approving an app with these scopes');
  await claim(ctx, input.id);
  const now = ctx.deps.clock.now();
  const code = newSecret('code');
  await ctx.deps.db.transaction(async (tx) => {
    const grantId = newId('oauthGrant');
    await tx.insert(oauthGrants).values({
      id: grantId,
      accountId: ctx.caller.accountId,
      memberId: ctx.caller.memberId,
      clientId: pending.clientId,
      scopes,
      resource: pending.resource,
      createdAt: now,
    });
    await tx.insert(oauthTokens).values({
      tokenHash: secretDigest(code),
      grantId,
      kind: 'code',
      codeChallenge: pending.codeChallenge,
      redirectUri: pending.redirectUri,
      createdAt: now,
      expiresAt: now + CODE_TTL_MS,
    });
  });
  ctx.log.info({ clientId: pending.clientId, scopes }, 'oauth app approved');
  return { redirectTo: redirectWith(pending.redirectUri, { code, state: pending.state }) };
}

export async function denyRequest({ ctx, input }: Call<{ id: string }>): Promise<{ redirectTo: string }> {
  const pending = await claim(ctx, input.id);
  return {
    redirectTo: redirectWith(pending.redirectUri, {
      error: 'access_denied',
      error_description: 'The account holder denied access.',
      state: pending.state,
    }),
  };
}

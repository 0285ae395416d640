import { and, eq } from 'drizzle-orm';
import type { Call, PublicCtx } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { brands, channels } from '../../db/schema/index.ts';
import { Invalid, NotFound, UpstreamFailed } from '../../domain/errors.ts';
import { newId } from '../../lib/ids.ts';
import { createPkcePair } from '../../platforms/pkce.ts';
import { type MemberIdentity, PlatformError, type TokenSet } from '../../platforms/platform.ts';
import type { Vault } from '../../vault/vault.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { findOwned, listOwned, requireReference } from '../tenancy.ts';
import { requireChannelTools } from './channel-config.ts';
import { loadChannelRow, toChannel } from './channel-row.ts';
import { markExpired, revokeChannel } from './channel-status.ts';
import { canRefresh, isLapsed, isRefreshDue, refreshChannelTokens, tokenColumns } from './channel-tokens.ts';
import type { CallbackQuery, Channel, ConnectChannelResult } from './channels.schemas.ts';
import { consumeOAuthState, createOAuthState } from './oauth-state.ts';

/** Starts the OAuth handshake: a single-use, account-bound state and the consent URL. */
export async function connectChannel({
  ctx,
  input,
}: Call<{ platform: string; brandId?: string }>): Promise<ConnectChannelResult> {
  const { deps, caller } = ctx;
  const { vault, platform } = requireChannelTools(deps, input.platform);
  if (input.brandId !== undefined) {
    await requireReference(ctx, brands, input.brandId, { what: 'Brand', path: 'brandId' });
  }
  const pkce = platform.pkce ? createPkcePair() : null;
  const { state } = await createOAuthState(deps, vault, {
    accountId: caller.accountId,
    memberId: caller.memberId,
    platform: input.platform,
    brandId: input.brandId ?? null,
    codeVerifier: pkce?.verifier ?? null,
  });
  const { url } = platform.authorizationUrl({ state, codeChallenge: pkce?.challenge ?? null });
  return { url, state };
}

/** Platform error codes are echoed only when they look like codes (the query is untrusted). */
const safeCode = (value: string) => (/^[\w.-]{1,64}$/.test(value) ? value : 'unknown_error');

/**
 * The platform's redirect back: spends the state, exchanges the code (with the PKCE
 * verifier), reads the member's identity, seals the tokens under the channel id and creates
 * the channel, or reconnects the account's existing channel for the same member.
 */
export async function completeConnect({
  ctx,
  input,
}: Call<CallbackQuery & { platform: string }, PublicCtx>): Promise<Channel> {
  const { deps } = ctx;
  const { vault, platform } = requireChannelTools(deps, input.platform);
  const bound = await consumeOAuthState(deps, vault, { state: input.state, platform: input.platform });
  if (input.error !== undefined) {
    throw new Invalid(
      `The member did not authorize access at ${input.platform} (${safeCode(input.error)}); start again with POST /v1/channels/${input.platform}/connect.`,
      undefined,
      'authorization_denied',
    );
  }
  if (!input.code) {
    throw new Invalid('The callback needs the `code` the platform sent.', [
      { path: 'query.code', message: 'Required' },
    ]);
  }

  let tokens: TokenSet;
  let identity: MemberIdentity;
  try {
    tokens = await platform.exchangeCode({ code: input.code, codeVerifier: bound.codeVerifier });
    identity = await platform.identify({ accessToken: tokens.accessToken });
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    ctx.log.warn({ kind: err.kind, status: err.status }, 'channel token exchange failed');
    throw new UpstreamFailed('token_exchange_failed', `Connecting the channel failed: ${err.message}`);
  }

  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    const channel = await upsertChannel(tx, vault, {
      accountId: bound.accountId,
      brandId: bound.brandId,
      platform: input.platform,
      identity,
      tokens,
      now,
    });
    // Named after the member who started the connect (the callback itself carries no credential).
    await recordAudit(
      tx,
      { accountId: bound.accountId, memberId: bound.memberId },
      { action: 'channel.connected', target: channel.id, at: now },
    );
    return channel;
  });
  // deps.log: the callback's request logger is quieted (its URL carries the code and state).
  deps.log.info({ channelId: row.id, accountId: row.accountId, reqId: ctx.requestId }, 'channel connected');
  return toChannel(row);
}

/** One channel per account, platform and member: a second connect for the same member reconnects it. */
async function upsertChannel(
  tx: Tx,
  vault: Vault,
  input: {
    accountId: string;
    brandId: string | null;
    platform: string;
    identity: MemberIdentity;
    tokens: TokenSet;
    now: number;
  },
) {
  const { accountId, platform, identity, tokens, now } = input;
  // The brand may have been deleted during the handshake.
  const brandId =
    input.brandId && (await findOwned({ accountId, db: tx }, brands, input.brandId)) ? input.brandId : null;
  const id = newId('channel');
  const [inserted] = await tx
    .insert(channels)
    .values({
      id,
      accountId,
      brandId,
      platform,
      platformUserId: identity.platformUserId,
      handle: identity.handle,
      status: 'connected',
      scopes: tokens.scopes,
      ...tokenColumns(vault, id, tokens, now),
      // identify() just proved the token: the health probe starts its interval from here.
      lastCheckedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: [channels.accountId, channels.platform, channels.platformUserId] })
    .returning();
  if (inserted) return inserted;

  const [existing] = await tx
    .select()
    .from(channels)
    .where(
      and(
        eq(channels.accountId, accountId),
        eq(channels.platform, platform),
        eq(channels.platformUserId, identity.platformUserId),
      ),
    )
    .for('update');
  if (!existing) throw new Error('channel vanished between insert conflict and select');
  const [updated] = await tx
    .update(channels)
    .set({
      // Sealed under the existing row's id: a token only opens in the row it belongs to.
      ...tokenColumns(vault, existing.id, tokens, now),
      status: 'connected',
      handle: identity.handle ?? existing.handle,
      scopes: tokens.scopes,
      brandId: brandId ?? existing.brandId,
      lastCheckedAt: now,
      updatedAt: now,
    })
    .where(eq(channels.id, existing.id))
    .returning();
  return updated!;
}

/*
 * Reading and disconnecting need neither the vault nor a platform (no token is opened or sent),
 * so they work on any deployment: CONTRACT.md declares 503 only for connect, callback and refresh.
 */
export async function listChannels({ ctx }: Call<void>): Promise<Channel[]> {
  return (await listOwned(ctx, channels)).map(toChannel);
}

export async function getChannel({ ctx, input }: Call<{ id: string }>): Promise<Channel> {
  return toChannel(await loadChannelRow(ctx.deps.db, ctx.caller.accountId, input.id));
}

/**
 * Disconnect: status `revoked`, sealed tokens wiped (set to null, not recoverable), row kept,
 * `channel.disconnected` recorded in the same transaction. Repeating it is a no-op.
 */
export async function disconnectChannel({ ctx, input }: Call<{ id: string }>): Promise<Channel> {
  const row = await revokeChannel(ctx.deps, {
    channelId: input.id,
    accountId: ctx.caller.accountId,
    reason: 'disconnected',
    memberId: ctx.caller.memberId,
  });
  if (!row) throw new NotFound('Channel');
  return toChannel(row);
}

/**
 * Re-reads the channel and renews its access token when at or near expiry (see
 * refreshDueAt); a no-op when fresh or when the channel is not connected. A lapsed token
 * with no usable refresh token turns the channel `expired`. 502 refresh_failed when the
 * platform refuses, with the channel (and the status that implied) next to the error.
 */
export async function refreshChannel({ ctx, input }: Call<{ id: string }>): Promise<Channel> {
  const { deps } = ctx;
  requireChannelTools(deps);
  const row = await loadChannelRow(deps.db, ctx.caller.accountId, input.id);
  const tools = requireChannelTools(deps, row.platform);
  const now = deps.clock.now();
  if (row.status !== 'connected' || !isRefreshDue(row, now)) return toChannel(row);
  if (!canRefresh(row, now)) {
    if (!isLapsed(row, now)) return toChannel(row);
    return toChannel((await markExpired(deps, row.id, 'access token lapsed; no refresh token')) ?? row);
  }
  const outcome = await refreshChannelTokens(deps, tools, row, { wait: true });
  if (outcome.kind === 'failed') {
    throw new UpstreamFailed(
      'refresh_failed',
      `Renewing the channel's token failed: ${outcome.error.message}`,
      {
        about: { channel: toChannel(outcome.row) },
      },
    );
  }
  if (!outcome.row) throw new NotFound('Channel');
  return toChannel(outcome.row);
}

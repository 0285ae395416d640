import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { AppDeps } from '../../context.ts';
import { oauthStates } from '../../db/schema/index.ts';
import { Invalid } from '../../domain/errors.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { vaultAad } from '../../vault/aad.ts';
import { type Vault, VaultError } from '../../vault/vault.ts';

/**
 * The OAuth `state`: 256 random bits handed to the member's browser, stored only as its
 * SHA-256 digest (a database reader cannot replay it), bound to the account that asked for
 * it, usable once, for 10 minutes. The PKCE verifier rides with it, sealed by the vault.
 */
export const STATE_TTL_MS = 10 * 60_000;
/** Used and expired states are kept this long (so a replay is told "already used"), then purged. */
export const STATE_RETENTION_MS = 24 * 3_600_000;

export const stateDigest = (state: string) => sha256Hex(state);

export async function createOAuthState(
  deps: AppDeps,
  vault: Vault,
  input: {
    accountId: string;
    memberId: string;
    platform: string;
    brandId: string | null;
    codeVerifier: string | null;
  },
): Promise<{ state: string; expiresAt: number }> {
  const state = randomBytes(32).toString('base64url');
  const stateHash = stateDigest(state);
  const now = deps.clock.now();
  const expiresAt = now + STATE_TTL_MS;
  await deps.db.insert(oauthStates).values({
    stateHash,
    accountId: input.accountId,
    memberId: input.memberId,
    platform: input.platform,
    brandId: input.brandId,
    codeVerifierSealed: input.codeVerifier
      ? vault.seal(input.codeVerifier, vaultAad.oauthVerifier(stateHash))
      : null,
    expiresAt,
    createdAt: now,
  });
  return { state, expiresAt };
}

export interface ConsumedState {
  accountId: string;
  /** The member who asked for the connect URL; null for states made before members were recorded. */
  memberId: string | null;
  platform: string;
  brandId: string | null;
  codeVerifier: string | null;
}

const badState = (message: string) => new Invalid(message, [{ path: 'query.state', message }]);

/**
 * Marks the state used (an atomic compare-and-set, so two concurrent callbacks cannot both
 * pass) and returns what it was bound to; 400 when unknown, for another platform, already
 * used or expired. The state is spent even if the code exchange then fails: the member
 * starts again from connect.
 */
export async function consumeOAuthState(
  deps: AppDeps,
  vault: Vault,
  input: { state: string; platform: string },
): Promise<ConsumedState> {
  const stateHash = stateDigest(input.state);
  const now = deps.clock.now();
  const [row] = await deps.db
    .update(oauthStates)
    .set({ usedAt: now })
    .where(
      and(
        eq(oauthStates.stateHash, stateHash),
        eq(oauthStates.platform, input.platform),
        isNull(oauthStates.usedAt),
        gt(oauthStates.expiresAt, now),
      ),
    )
    .returning();
  if (!row) {
    const [known] = await deps.db.select().from(oauthStates).where(eq(oauthStates.stateHash, stateHash));
    if (!known || known.platform !== input.platform)
      throw badState(`Unknown state: it was not issued by POST /v1/channels/${input.platform}/connect.`);
    if (known.usedAt !== null)
      throw badState('This state was already used: each connect URL works once; start again with connect.');
    throw badState('This state expired (states last 10 minutes); start again with connect.');
  }
  let codeVerifier: string | null = null;
  if (row.codeVerifierSealed) {
    try {
      codeVerifier = vault.open(row.codeVerifierSealed, vaultAad.oauthVerifier(stateHash));
    } catch (err) {
      if (!(err instanceof VaultError)) throw err;
      throw badState(
        'This state can no longer be verified (the vault key changed); start again with connect.',
      );
    }
  }
  // The verifier has served its purpose: drop it rather than keep a secret nobody needs.
  if (row.codeVerifierSealed)
    await deps.db
      .update(oauthStates)
      .set({ codeVerifierSealed: null })
      .where(eq(oauthStates.stateHash, stateHash));
  return {
    accountId: row.accountId,
    memberId: row.memberId,
    platform: row.platform,
    brandId: row.brandId,
    codeVerifier,
  };
}

/** Deletes states that expired more than STATE_RETENTION_MS ago; returns how many. */
export async function purgeOAuthStates(deps: AppDeps): Promise<number> {
  const cutoff = deps.clock.now() - STATE_RETENTION_MS;
  const gone = await deps.db
    .delete(oauthStates)
    .where(lt(oauthStates.expiresAt, cutoff))
    .returning({ h: oauthStates.stateHash });
  return gone.length;
}

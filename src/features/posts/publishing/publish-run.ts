import { and, eq, inArray } from 'drizzle-orm';
import type { AppDeps } from '../../../context.ts';
import { media } from '../../../db/schema/index.ts';
import { isDependencyOutage } from '../../../domain/dependency-outage.ts';
import { Conflict, DomainError, NotFound } from '../../../domain/errors.ts';
import {
  type MediaFile,
  PlatformError,
  type PlatformErrorKind,
  type PublishedPost,
} from '../../../platforms/platform.ts';
import { withChannelAccess } from '../../channels/channel-access.ts';
import { type Claim, markCreateSent, startHeartbeat } from './claims.ts';
import {
  MAX_PUBLISH_ATTEMPTS,
  markFailed,
  markPublished,
  markRetry,
  type Outcome,
} from './publish-outcome.ts';
import { recoverSentCreate } from './sent-create-recovery.ts';

/**
 * The one publish path after a claim, shared by publish-now, the due sweep and recovery:
 * upload the media and create the post through the channel, then record the outcome.
 *
 * Exactly once: `beforeCreate` commits `createSentAt` (conditional on still holding the claim)
 * before the create leaves. A failure before that point never reached the platform's create
 * and may be retried; after it, only an explicit refusal from the platform proves nothing was
 * created. Anything else is an unknown outcome, settled by asking the platform
 * (`findPublished`) or failing with `publish_outcome_unknown` -- never by sending again in the
 * same run. Only recovery sends a create twice, and only where the platform both says it has no
 * such post and refuses an identical one (sent-create-recovery.ts).
 */

class ClaimLost extends Error {}

/** Platform answers to a create that prove the platform did not create the post. */
const REFUSALS: ReadonlySet<PlatformErrorKind> = new Set([
  'expired_token',
  'revoked_token',
  'missing_scope',
  'bad_request',
  'duplicate',
  'misconfigured',
  'rate_limited',
]);

/** The channel problems a publish reports as conflicts, with the code the channel feature uses. */
const CHANNEL_CODES: Partial<Record<PlatformErrorKind, string>> = {
  revoked_token: 'channel_revoked',
  expired_token: 'channel_expired',
  missing_scope: 'channel_error',
};
const CHANNEL_APP_CODES = new Set(['channel_revoked', 'channel_expired', 'channel_error']);

async function mediaFilesOf(deps: AppDeps, claim: Claim): Promise<MediaFile[] | string[]> {
  const ids = claim.row.mediaIds;
  if (ids.length === 0) return [];
  const rows = await deps.db
    .select()
    .from(media)
    .where(and(eq(media.accountId, claim.row.accountId), inArray(media.id, ids)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) return missing;
  return ids.map((id) => {
    const row = byId.get(id)!;
    return {
      id,
      contentType: row.contentType,
      size: row.size,
      filename: row.filename,
      open: () => deps.storage.get(row.storageKey),
    };
  });
}

/**
 * Recovery's second send of a create a dead process sent (sent-create-recovery.ts): allowed
 * although "create sent" is already recorded; a `duplicate` refusal means the first landed.
 */
export interface Resend {
  onDuplicate(): Promise<Outcome>;
  /** The post's error when the second send's outcome is unknown too. */
  unknownReason: string;
}

export async function runPublish(deps: AppDeps, claim: Claim, resend?: Resend): Promise<Outcome> {
  const { row } = claim;
  const heartbeat = startHeartbeat(deps, claim);
  let sent = false;
  let refused = false;
  try {
    if (!row.channelId) {
      return await markFailed(deps, claim, {
        reason: 'invalid',
        code: 'invalid_request',
        message: 'The post has no channel to publish to.',
      });
    }
    const files = await mediaFilesOf(deps, claim);
    if (files.length > 0 && typeof files[0] === 'string') {
      return await markFailed(deps, claim, {
        reason: 'conflict',
        code: 'media_missing',
        message: `Media ${files.join(', ')} was deleted before the post was published.`,
      });
    }
    const result = await withChannelAccess(
      deps,
      { accountId: row.accountId, channelId: row.channelId },
      async ({ platform, accessToken, authorRef, channel }) => {
        try {
          return await platform.publish({
            accessToken,
            authorRef,
            handle: channel.handle,
            text: row.text,
            media: files as MediaFile[],
            beforeCreate: async () => {
              if (!(await markCreateSent(deps, claim, refused || resend !== undefined)))
                throw new ClaimLost();
              sent = true;
              refused = false;
            },
          });
        } catch (err) {
          if (sent && err instanceof PlatformError && REFUSALS.has(err.kind)) refused = true;
          throw err;
        }
      },
    );
    return await markPublished(deps, claim, result);
  } catch (err) {
    if (err instanceof ClaimLost) return { kind: 'lost' };
    if (resend && sent && err instanceof PlatformError && err.kind === 'duplicate')
      return await resend.onDuplicate();
    if (sent && !refused) return await resolveUnknown(deps, claim, resend?.unknownReason ?? describe(err));
    return await settleBeforeCreate(deps, claim, err);
  } finally {
    heartbeat.stop();
  }
}

export const describe = (err: unknown) =>
  err instanceof PlatformError || err instanceof DomainError ? err.message : 'The publish was interrupted.';

/** The platform did not act on any create: decide between final failure and retry. */
async function settleBeforeCreate(deps: AppDeps, claim: Claim, err: unknown): Promise<Outcome> {
  if (err instanceof DomainError) {
    if (err instanceof Conflict && CHANNEL_APP_CODES.has(err.code)) {
      return markFailed(deps, claim, { reason: 'conflict', code: err.code, message: err.message });
    }
    if (err instanceof NotFound) {
      return markFailed(deps, claim, {
        reason: 'conflict',
        code: 'channel_error',
        message: 'The post’s channel no longer exists.',
      });
    }
    // Not configured, refresh_failed: the deployment or the platform may recover.
    return markRetry(deps, claim, err.message);
  }
  if (err instanceof PlatformError) {
    const channelCode = CHANNEL_CODES[err.kind];
    if (channelCode)
      return markFailed(deps, claim, { reason: 'conflict', code: channelCode, message: err.message });
    // A 429 that says when the platform will take the call again (platformB) is retried no sooner.
    if (err.retryable) return markRetry(deps, claim, err.message, err.retryAt);
    return markFailed(deps, claim, { reason: 'platform', code: 'publish_failed', message: err.message });
  }
  deps.log.error({ err, postId: claim.row.id }, 'publish interrupted by an internal error');
  return markRetry(deps, claim, 'An internal error interrupted the publish before the post was sent.');
}

/**
 * The create may or may not have reached the platform. Ask the platform where it can tell;
 * otherwise fail for good. Never re-sends.
 */
export async function resolveUnknown(deps: AppDeps, claim: Claim, reason: string): Promise<Outcome> {
  const { row } = claim;
  const heartbeat = startHeartbeat(deps, claim);
  try {
    let found: PublishedPost | null = null;
    if (row.channelId) {
      try {
        found = await withChannelAccess(
          deps,
          { accountId: row.accountId, channelId: row.channelId },
          ({ platform, accessToken, authorRef }) =>
            platform.findPublished
              ? platform.findPublished({
                  accessToken,
                  authorRef,
                  text: row.text,
                  since: row.createSentAt ?? row.claimedAt ?? row.updatedAt,
                })
              : Promise.resolve(null),
        );
      } catch (err) {
        // A database outage (reading the channel) says nothing about the platform: leave the
        // claim to lease recovery rather than settle it as unknown.
        if (isDependencyOutage(err)) throw err;
        deps.log.warn({ err, postId: row.id }, 'could not ask the platform whether a post exists');
      }
    }
    if (found) return await markPublished(deps, claim, found);
    return await markFailed(deps, claim, {
      reason: 'platform',
      code: 'publish_outcome_unknown',
      message: `${reason} The platform could not confirm whether the post exists, so it was not sent again; check the profile and create a new post if it is missing.`,
    });
  } finally {
    heartbeat.stop();
  }
}

/** A claim taken over from a dead process: finish its publish, or settle its unknown create. */
export async function recoverClaim(deps: AppDeps, claim: Claim): Promise<Outcome> {
  if (claim.row.createSentAt !== null) return recoverSentCreate(deps, claim);
  if (claim.row.publishAttempts > MAX_PUBLISH_ATTEMPTS) {
    return markFailed(deps, claim, {
      reason: 'platform',
      code: 'publish_failed',
      message: `Publishing was interrupted ${claim.row.publishAttempts} times before the post was sent; giving up.`,
    });
  }
  return runPublish(deps, claim);
}

import type { AppDeps } from '../../../context.ts';
import { type MediaFile, PlatformError, type PlatformErrorKind } from '../../../platforms/platform.ts';
import { type ChannelAccess, withChannelAccess } from '../../channels/channel-access.ts';
import type { ChannelTools } from '../../channels/channel-config.ts';
import { decideBeforeCreate } from './before-create.ts';
import { type Claim, markCreateSent, takeChannel } from './claims.ts';
import { describe, lookUpPart } from './part-lookup.ts';
import { inPart, type Part, type Progress, parentOf, partFailure, withPart } from './parts.ts';
import { markFailed, markLookupPending, markRetry, type Outcome } from './publish-outcome.ts';

/**
 * Sends one part of a post exactly once. `beforeCreate` commits `createSentAt` (conditional on
 * still holding the claim) before the create leaves. A failure before that point never reached
 * the platform's create and may be retried; after it, only an explicit refusal from the
 * platform proves nothing was created. Anything else is an unknown outcome, settled by asking
 * the platform (`lookUpPart`) or failing with `publish_outcome_unknown` -- never by sending
 * again in the same run. Only recovery sends a create twice, and only where the platform both
 * says it has no such part and refuses an identical one (sent-create-recovery.ts).
 */

/** The part is on the platform (progress includes it), or the publish stopped with an outcome. */
export type PartStep = { kind: 'published'; progress: Progress } | { kind: 'stopped'; outcome: Outcome };

export const stopped = (outcome: Outcome): PartStep => ({ kind: 'stopped', outcome });

/**
 * Recovery's second send of a create a dead process sent: allowed although "create sent" is
 * already recorded; a `duplicate` refusal means the first landed.
 */
export interface Resend {
  onDuplicate(): Promise<PartStep>;
  /** The post's error when the second send's outcome is unknown too. */
  unknownReason: string;
}

class ClaimLost extends Error {}

/** Platform answers to a create that prove the platform did not create the part. */
const REFUSALS: ReadonlySet<PlatformErrorKind> = new Set([
  'expired_token',
  'revoked_token',
  'missing_scope',
  'bad_request',
  'duplicate',
  'misconfigured',
  'rate_limited',
]);

export interface PartInput {
  part: Part;
  progress: Progress;
  /** The post's media (the first part carries them). */
  files: MediaFile[];
  /** The vault and the channel's adapter, checked once for the run (null: each send reports what is missing). */
  tools: ChannelTools | null;
  resend?: Resend;
}

/** The one create of a part, through the channel's adapter. */
async function createPart(
  { platform, accessToken, authorRef, channel }: ChannelAccess,
  { part, progress, files }: PartInput,
  beforeCreate: () => Promise<void>,
): Promise<{ id: string; url: string | null }> {
  const base = { accessToken, authorRef, handle: channel.handle, text: part.text, beforeCreate };
  if (part.kind === 'post') {
    const made = await platform.publish({ ...base, media: files });
    return { id: made.platformPostId, url: made.platformUrl };
  }
  const parentId = parentOf(progress, part);
  if (!parentId) throw new PlatformError('bad_request', 'The part before this one is not recorded.');
  if (part.kind === 'reply') {
    // A platform without replies would post the part as a separate post: refuse before sending.
    if (!platform.profile.threads) throw new PlatformError('bad_request', `${platform.id} has no threads.`);
    const made = await platform.publish({ ...base, media: [], replyTo: parentId });
    return { id: made.platformPostId, url: made.platformUrl };
  }
  const made = await platform.comment({ ...base, parentId });
  return { id: made.commentId, url: null };
}

export async function sendPart(deps: AppDeps, claim: Claim, input: PartInput): Promise<PartStep> {
  const { row } = claim;
  const { resend, part } = input;
  let sent = false;
  let refused = false;
  try {
    const made = await withChannelAccess(
      deps,
      {
        accountId: row.accountId,
        channelId: row.channelId!,
        row: takeChannel(claim),
        tools: input.tools ?? undefined,
      },
      async (access) => {
        try {
          return await createPart(access, input, async () => {
            if (!(await markCreateSent(deps, claim, refused || resend !== undefined))) throw new ClaimLost();
            sent = true;
            refused = false;
          });
        } catch (err) {
          if (sent && err instanceof PlatformError && REFUSALS.has(err.kind)) refused = true;
          throw err;
        }
      },
    );
    return { kind: 'published', progress: withPart(input.progress, part, made.id, made.url) };
  } catch (err) {
    if (err instanceof ClaimLost) return stopped({ kind: 'lost' });
    if (resend && sent && err instanceof PlatformError && err.kind === 'duplicate')
      return resend.onDuplicate();
    if (sent && !refused) return settleUnknown(deps, claim, input, resend?.unknownReason ?? describe(err));
    return stopped(await settleBeforeCreate(deps, claim, part, err));
  }
}

/** The platform did not act on the part's create: final failure or retry (before-create.ts). */
async function settleBeforeCreate(deps: AppDeps, claim: Claim, part: Part, err: unknown): Promise<Outcome> {
  const decision = decideBeforeCreate(err);
  if (decision.kind === 'fail') {
    const { reason, code, message } = decision;
    return markFailed(deps, claim, partFailure(part, { reason, code, message }));
  }
  if (decision.kind === 'retry')
    return markRetry(deps, claim, inPart(part, decision.message), decision.notBefore);
  deps.log.error({ err, postId: claim.row.id, part: part.index }, 'publish interrupted by an internal error');
  return markRetry(
    deps,
    claim,
    inPart(part, 'An internal error interrupted the publish before the post was sent.'),
  );
}

/**
 * The part's create may or may not have reached the platform. Ask the platform where it can
 * tell; otherwise fail for good. Never re-sends.
 */
async function settleUnknown(
  deps: AppDeps,
  claim: Claim,
  input: PartInput,
  reason: string,
): Promise<PartStep> {
  const { row } = claim;
  const found = await lookUpPart(deps, claim, input.part, input.progress, row.claimedAt ?? row.updatedAt);
  if (found.kind === 'found') {
    return { kind: 'published', progress: withPart(input.progress, input.part, found.id, found.url) };
  }
  // Recovery's second send, answer lost: nobody waits on this run, so rather than fail, the post
  // waits in `publishing` and is looked up again, no sooner than a lease from now (that create
  // has landed or never will by then; a repeat post would be refused as a duplicate).
  if (input.resend && found.kind !== 'out_of_reach') {
    const why =
      found.kind === 'absent'
        ? 'The platform does not list it yet'
        : `The platform cannot say yet whether it has it (${found.reason})`;
    return stopped(
      await markLookupPending(
        deps,
        claim,
        inPart(input.part, `${reason} ${why}, so it is not sent again until the platform shows it missing.`),
        deps.clock.now() + deps.config.PUBLISH_LEASE_MS,
      ),
    );
  }
  const comment = input.part.kind === 'comment';
  const what = comment ? 'comment' : 'post';
  const check = comment
    ? 'check the post and add the comment yourself if it is missing'
    : 'check the profile and create a new post if it is missing';
  // "Absent" is not proof: a create whose answer was lost may still land after the listing.
  const unsettled =
    found.kind === 'absent'
      ? `The platform does not list the ${what} yet; it was not sent again in case that create still lands, so ${check}.`
      : `The platform could not confirm whether the ${what} exists, so it was not sent again; ${check}.`;
  return stopped(
    await markFailed(
      deps,
      claim,
      partFailure(input.part, {
        reason: 'platform',
        code: 'publish_outcome_unknown',
        message: `${reason} ${unsettled}`,
      }),
    ),
  );
}

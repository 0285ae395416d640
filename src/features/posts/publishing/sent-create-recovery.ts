import type { AppDeps } from '../../../context.ts';
import { isDependencyOutage } from '../../../domain/dependency-outage.ts';
import type { PostLookup } from '../../../platforms/platform.ts';
import { withChannelAccess } from '../../channels/channel-access.ts';
import { type Claim, startHeartbeat } from './claims.ts';
import { markFailed, markPublished, type Outcome } from './publish-outcome.ts';
import { describe, runPublish } from './publish-run.ts';

/**
 * Recovery of a post whose process died after recording "create sent": the create may or may
 * not have reached the platform.
 *
 * - The platform shows the post: it is published, with the platform's id.
 * - The platform says it has no such post (`lookupPost` answered `absent`: it listed the
 *   member's posts since the create): the create is sent again. Both platforms refuse an
 *   identical post (platformA 422 DUPLICATE_POST, platformB 403 duplicate content), so if the
 *   first create did land after all, the second is refused, never posted: a duplicate answer
 *   means the post exists, and it is looked up again and recorded as published.
 * - Anything else (the platform cannot list the member's posts, the lookup fails, the second
 *   send's answer is lost too, or the duplicate cannot be found): `publish_outcome_unknown`,
 *   with the post's `error` saying what was tried.
 */
const STOPPED = 'The process publishing this post stopped after sending it to the platform.';
const CHECK = 'Check the profile and create a new post if it is missing.';

async function lookUp(deps: AppDeps, claim: Claim, since: number): Promise<PostLookup> {
  const { row } = claim;
  if (!row.channelId) return { kind: 'cannot_tell', reason: 'the post has no channel' };
  try {
    return await withChannelAccess(
      deps,
      { accountId: row.accountId, channelId: row.channelId },
      async ({ platform, accessToken, authorRef }): Promise<PostLookup> => {
        const input = { accessToken, authorRef, text: row.text, since };
        if (platform.lookupPost) return platform.lookupPost(input);
        const post = platform.findPublished ? await platform.findPublished(input) : null;
        return post
          ? { kind: 'found', post }
          : { kind: 'cannot_tell', reason: `${platform.id} cannot say that it has no such post` };
      },
    );
  } catch (err) {
    // Our own database failing (reading the channel's tokens) settles nothing about the
    // platform: leave the claim for the next recovery once the database is back.
    if (isDependencyOutage(err)) throw err;
    deps.log.warn({ err, postId: row.id }, 'could not ask the platform whether a post exists');
    return { kind: 'cannot_tell', reason: `asking the platform failed: ${describe(err)}` };
  }
}

const unknown = (deps: AppDeps, claim: Claim, message: string) =>
  markFailed(deps, claim, {
    reason: 'platform',
    code: 'publish_outcome_unknown',
    message: `${message} ${CHECK}`,
  });

export async function recoverSentCreate(deps: AppDeps, claim: Claim): Promise<Outcome> {
  const { row } = claim;
  const since = row.createSentAt ?? row.claimedAt ?? row.updatedAt;
  const heartbeat = startHeartbeat(deps, claim);
  let first: PostLookup;
  try {
    first = await lookUp(deps, claim, since);
  } finally {
    heartbeat.stop();
  }
  if (first.kind === 'found') return markPublished(deps, claim, first.post);
  if (first.kind === 'cannot_tell') {
    return unknown(
      deps,
      claim,
      `${STOPPED} Whether the platform has it could not be settled (${first.reason}), so it was not sent again.`,
    );
  }
  const resent = `${STOPPED} The platform showed no such post, so it was sent again`;
  return runPublish(deps, claim, {
    unknownReason: `${resent}, and the answer to that was lost too.`,
    async onDuplicate() {
      const second = await lookUp(deps, claim, since);
      if (second.kind === 'found') return markPublished(deps, claim, second.post);
      const why = second.kind === 'absent' ? 'it was not listed' : second.reason;
      return unknown(
        deps,
        claim,
        `${resent}; the platform refused that as a duplicate, so the post exists, but looking it up again did not find it (${why}).`,
      );
    },
  });
}

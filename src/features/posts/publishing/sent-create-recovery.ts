import type { AppDeps } from '../../../context.ts';
import type { Claim } from './claims.ts';
import { lookUpPart, type PartLookup } from './part-lookup.ts';
import { stopped } from './part-send.ts';
import { inPart, nextPart, type Part, partFailure, partsOf, progressOf, withPart } from './parts.ts';
import { MAX_PUBLISH_ATTEMPTS, markFailed, markLookupPending, type Outcome } from './publish-outcome.ts';
import { runPublish } from './publish-run.ts';

/**
 * Recovery of a claim taken over from a dead process. Without "create sent" the create of the
 * next part never left: the publish runs again from the first part not recorded. With it, the
 * create of that part (`createSentAt` belongs to it, parts.ts) may or may not have reached the
 * platform:
 *
 * - The platform shows the part: it is recorded with the platform's id and the publish goes on
 *   with the next part.
 * - The platform says it has no such part (`absent`: it listed the member's posts, or the
 *   comments under the parent, since the create): the part is sent again. Both platforms refuse
 *   an identical post (platformA 422 DUPLICATE_POST, platformB 403 duplicate content, thread
 *   parts and replies included), so if the first create did land after all, the second is
 *   refused, never posted: a duplicate answer means the part exists, and it is looked up again.
 *   A platformA first comment missing from the post's comments is sent once more too: the
 *   platform lists every comment of a post, and recovery runs a lease after the dead
 *   process's create left, so that create has landed or never will. platformA would accept
 *   a repeated comment, so this second send is the only one.
 * - The platform cannot tell yet (`cannot_tell`: its listing failed or was cut short, a
 *   same-text post of the channel was in flight): nothing is decided. The post stays
 *   `publishing`, released, with `error` reading `publish_outcome_pending: ...` (why, and when
 *   it is asked again), and the sweep takes it over again after the jobs kit's LOOKUP_RETRY
 *   backoff (markLookupPending). Parts recorded before stay recorded.
 *   The second send's answer lost too, and the platform not showing the part yet, waits the
 *   same way, a lease at least (part-send.ts settleUnknown).
 * - The platform can no longer tell (`out_of_reach`: the create is past the platform's own
 *   window, or it never lets this app list), or the duplicate cannot be found:
 *   `publish_outcome_unknown`, with the post's `error` naming the part and saying what was
 *   tried. Parts recorded before stay published (platformPostIds).
 */
const check = (part: Part) =>
  part.kind === 'comment'
    ? 'Check the post and add the comment yourself if it is missing.'
    : 'Check the profile and create a new post if it is missing.';
const stoppedAfter = (part: Part) =>
  `The process publishing this post stopped after sending ${part.of === 1 ? 'it' : 'this part'} to the platform.`;

const unknown = (deps: AppDeps, claim: Claim, part: Part, message: string) =>
  markFailed(
    deps,
    claim,
    partFailure(part, {
      reason: 'platform',
      code: 'publish_outcome_unknown',
      message: `${message} ${check(part)}`,
    }),
  );

/** The look-up could not answer yet: the post waits in `publishing` and is asked about again. */
const pending = (deps: AppDeps, claim: Claim, part: Part, reason: string) =>
  markLookupPending(
    deps,
    claim,
    inPart(
      part,
      `${stoppedAfter(part)} The platform cannot say yet whether it has it (${reason}), so it is not sent again until the platform shows it missing.`,
    ),
  );

/** A claim taken over from a dead process: finish its publish, or settle its unknown create. */
export async function recoverClaim(deps: AppDeps, claim: Claim): Promise<Outcome> {
  if (claim.row.createSentAt !== null) return recoverSentCreate(deps, claim);
  if (claim.row.publishAttempts > MAX_PUBLISH_ATTEMPTS) {
    const parts = partsOf(claim.row);
    const part = parts[Math.min(nextPart(progressOf(claim.row), parts), parts.length - 1)]!;
    return markFailed(deps, claim, {
      reason: 'platform',
      code: 'publish_failed',
      message: inPart(
        part,
        `Publishing was interrupted ${claim.row.publishAttempts} times before the ${part.kind === 'comment' ? 'comment' : 'post'} was sent; giving up.`,
      ),
    });
  }
  return runPublish(deps, claim);
}

export async function recoverSentCreate(deps: AppDeps, claim: Claim): Promise<Outcome> {
  const { row } = claim;
  const parts = partsOf(row);
  const progress = progressOf(row);
  const part = parts[nextPart(progress, parts)];
  // Every part is recorded (nothing can be in flight): only the final write is missing.
  if (!part) return runPublish(deps, claim);
  const since = row.createSentAt ?? row.claimedAt ?? row.updatedAt;
  // The sweep keeps the claim alive meanwhile (the post's heartbeat in publish.sweep.ts settle).
  // The first look-up may read the channel's listing asked for since this claim was taken
  // (channel-listing.ts); the one after a duplicate refusal needs a listing made after it.
  const takenAt = row.claimedAt ?? deps.clock.now();
  const lookUp = (notBefore: number): Promise<PartLookup> =>
    lookUpPart(deps, claim, part, progress, since, notBefore);
  const first = await lookUp(takenAt);
  if (first.kind === 'found') return runPublish(deps, claim, { kind: 'found', id: first.id, url: first.url });
  if (first.kind === 'cannot_tell') return pending(deps, claim, part, first.reason);
  if (first.kind === 'out_of_reach') {
    return unknown(
      deps,
      claim,
      part,
      `${stoppedAfter(part)} Whether the platform has it could not be settled (${first.reason}), so it was not sent again.`,
    );
  }
  const resent = `${stoppedAfter(part)} The platform showed no such ${part.kind === 'comment' ? 'comment' : 'post'}, so it was sent again`;
  return runPublish(deps, claim, {
    kind: 'resend',
    resend: {
      unknownReason: `${resent}, and the answer to that was lost too.`,
      async onDuplicate() {
        const second = await lookUp(deps.clock.now());
        if (second.kind === 'found')
          return { kind: 'published', progress: withPart(progress, part, second.id, second.url) };
        // The platform said the part exists: a listing that cannot answer yet is asked again.
        if (second.kind === 'cannot_tell') return stopped(await pending(deps, claim, part, second.reason));
        const why = second.kind === 'absent' ? 'it was not listed' : second.reason;
        return stopped(
          await unknown(
            deps,
            claim,
            part,
            `${resent}; the platform refused that as a duplicate, so ${part.of === 1 ? 'the post' : 'it'} exists, but looking it up again did not find it (${why}).`,
          ),
        );
      },
    },
  });
}

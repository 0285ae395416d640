import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, gte, isNotNull, ne } from 'drizzle-orm';
import type { AppDeps } from '../../../context.ts';
import { posts } from '../../../db/schema/index.ts';
import { isDependencyOutage } from '../../../domain/dependency-outage.ts';
import { DomainError } from '../../../domain/errors.ts';
import { type LookupUnsettled, PlatformError } from '../../../platforms/platform.ts';
import { matchIn } from '../../../platforms/recent-posts.ts';
import { withChannelAccess } from '../../channels/channel-access.ts';
import { type ChannelListing, channelListing } from './channel-listing.ts';
import type { Claim } from './claims.ts';
import { type Part, type Progress, parentOf } from './parts.ts';

/**
 * What the platform says about a part whose create may or may not have landed: `cannot_tell`
 * is "not now" (asked again later), `out_of_reach` is "never" (platform.ts LookupUnsettled).
 */
export type PartLookup =
  | { kind: 'found'; id: string; url: string | null }
  | { kind: 'absent' }
  | LookupUnsettled;

export const describe = (err: unknown) =>
  err instanceof PlatformError || err instanceof DomainError ? err.message : 'The publish was interrupted.';

/** How far before `since` another post's recorded parts are gathered (beyond the adapters' skew allowance). */
const RECORDED_WINDOW_MS = 10 * 60_000;

/**
 * Platform ids recorded by the channel's other posts updated since shortly before `since`: a
 * post with the same text (a series' occurrences, an evergreen re-post) published around the
 * same time is theirs, not the lost create of this one.
 */
async function recordedElsewhere(deps: AppDeps, row: Claim['row'], since: number): Promise<string[]> {
  const others = await deps.db
    .select({ first: posts.platformPostId, rest: posts.threadPostIds })
    .from(posts)
    .where(
      and(
        eq(posts.channelId, row.channelId!),
        ne(posts.id, row.id),
        isNotNull(posts.platformPostId),
        gte(posts.updatedAt, since - RECORDED_WINDOW_MS),
      ),
    );
  return others.flatMap((o) => [o.first!, ...o.rest]);
}

/**
 * The part in the channel's shared listing (channel-listing.ts): the newest post with its text
 * since `since` that no other post of ours recorded or already matched in this listing.
 */
async function inListing(
  deps: AppDeps,
  row: Claim['row'],
  part: Part,
  since: number,
  listing: ChannelListing,
): Promise<PartLookup> {
  const answer = await listing.result;
  if (answer.kind !== 'listed') return answer;
  const exclude = new Set(await recordedElsewhere(deps, row, since));
  const found = matchIn(answer, part.text, since, (id) => exclude.has(id) || listing.taken.has(id));
  if (!found) return { kind: 'absent' };
  listing.taken.add(found.platformPostId);
  return { kind: 'found', id: found.platformPostId, url: found.platformUrl };
}

/** How often recovery looks again whether a same-text post of the channel is still in flight. */
const IN_FLIGHT_POLL_MS = 200;

/**
 * Whether another post of the channel with the same text holds a live claim (within its lease):
 * its create may be on the wire or landed with its id not yet recorded. A lookup now could take
 * that post for this one's lost create (a series' occurrences due seconds apart, an evergreen
 * re-post), and then one of the two would read `published` without ever having been posted.
 */
async function sameTextInFlight(deps: AppDeps, row: Claim['row']): Promise<boolean> {
  const live = deps.clock.now() - deps.config.PUBLISH_LEASE_MS;
  const [other] = await deps.db
    .select({ id: posts.id })
    .from(posts)
    .where(
      and(
        eq(posts.channelId, row.channelId!),
        ne(posts.id, row.id),
        eq(posts.text, row.text),
        eq(posts.status, 'publishing'),
        gte(posts.claimedAt, live),
      ),
    )
    .limit(1);
  return other !== undefined;
}

/**
 * Waits, up to one lease, until no same-text post of the channel is in flight, so its platform
 * id is recorded (and excluded) before the lookup. False when one still is: the caller cannot
 * tell which platform post is whose.
 */
async function waitForSameTextPosts(deps: AppDeps, row: Claim['row']): Promise<boolean> {
  const deadline = performance.now() + deps.config.PUBLISH_LEASE_MS;
  while (await sameTextInFlight(deps, row)) {
    if (performance.now() >= deadline) return false;
    await sleep(IN_FLIGHT_POLL_MS);
  }
  return true;
}

/**
 * Asks the platform whether the member has this part since `since`: the post and thread parts
 * among the member's recent posts (the channel's shared listing, channel-listing.ts, when the
 * adapter lists them; else `lookupPost`, else `findPublished`), the first comment under its
 * parent (`lookupComment`, else `findComment`; platformB's, a reply, in the listing). A shared
 * listing is used only if it was asked for at or after `notBefore`: recovery passes the time it
 * took the claim over (the dead process's create has landed or never will by then), a caller
 * whose create failed just now, the present. `absent` only where the platform says so
 * in a way recovery may act on (PostLookup, CommentLookup); a platform without the tri-state
 * method can only say found or `out_of_reach`. A post or thread part is looked up only once no
 * other post of the channel with the same text is in flight (waitForSameTextPosts).
 */
export async function lookUpPart(
  deps: AppDeps,
  claim: Claim,
  part: Part,
  progress: Progress,
  since: number,
  notBefore: number = deps.clock.now(),
): Promise<PartLookup> {
  const { row } = claim;
  if (!row.channelId) return { kind: 'out_of_reach', reason: 'the post has no channel' };
  if (part.kind !== 'comment' && !(await waitForSameTextPosts(deps, row))) {
    return {
      kind: 'cannot_tell',
      reason: 'another post of this channel with the same text was being published at the same time',
    };
  }
  try {
    return await withChannelAccess(
      deps,
      { accountId: row.accountId, channelId: row.channelId },
      async ({ platform, accessToken, authorRef }): Promise<PartLookup> => {
        const input = { accessToken, authorRef, text: part.text, since };
        // Every part platformB lists among the member's posts (a first comment is a reply there).
        const listed = part.kind !== 'comment' || platform.profile.firstComment.as === 'reply';
        const listing = listed
          ? channelListing(deps, { platform, accessToken, authorRef }, row.channelId!, since, notBefore)
          : null;
        if (listing) return inListing(deps, row, part, since, listing);
        if (part.kind === 'comment') {
          const parentId = parentOf(progress, part);
          if (!parentId) return { kind: 'out_of_reach', reason: 'the post itself is not recorded' };
          if (platform.lookupComment) {
            const found = await platform.lookupComment({ ...input, parentId });
            return found.kind === 'found' ? { kind: 'found', id: found.comment.commentId, url: null } : found;
          }
          const comment = platform.findComment ? await platform.findComment({ ...input, parentId }) : null;
          return comment
            ? { kind: 'found', id: comment.commentId, url: null }
            : { kind: 'out_of_reach', reason: `${platform.id} cannot say that it has no such comment` };
        }
        const exclude = await recordedElsewhere(deps, row, since);
        if (platform.lookupPost) {
          const found = await platform.lookupPost({ ...input, exclude });
          return found.kind === 'found'
            ? { kind: 'found', id: found.post.platformPostId, url: found.post.platformUrl }
            : found;
        }
        const post = platform.findPublished ? await platform.findPublished({ ...input, exclude }) : null;
        return post
          ? { kind: 'found', id: post.platformPostId, url: post.platformUrl }
          : { kind: 'out_of_reach', reason: `${platform.id} cannot say that it has no such post` };
      },
    );
  } catch (err) {
    // Our own database failing (reading the channel's tokens) settles nothing about the
    // platform: leave the claim for the next recovery once the database is back.
    if (isDependencyOutage(err)) throw err;
    deps.log.warn(
      { err, postId: row.id, part: part.index },
      'could not ask the platform whether a part exists',
    );
    return { kind: 'cannot_tell', reason: `asking the platform failed: ${describe(err)}` };
  }
}

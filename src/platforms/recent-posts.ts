import {
  LOOKUP_SKEW_MS,
  type PostLookup,
  type PostLookupInput,
  type RecentPost,
  type RecentPosts,
  type RecentPostsInput,
} from './platform.ts';

/**
 * How long one recovery listing may page back before it is given up as `cannot_tell` (asked
 * again later): a bound in time, so a busy member's listing is read as far as it must go
 * (hundreds of pages if need be) without one look-up holding a recovery for ever.
 */
export const LISTING_BUDGET_MS = 60_000;

/**
 * The newest listed post with this text created since `since` (less the skew allowance) that
 * `skip` does not rule out (ids other posts of ours recorded, or another recovery took).
 */
export function matchIn(
  listing: Extract<RecentPosts, { kind: 'listed' }>,
  text: string,
  since: number,
  skip: (platformPostId: string) => boolean,
): RecentPost | null {
  const oldest = since - LOOKUP_SKEW_MS;
  return (
    listing.posts.find(
      (p) =>
        listing.sameText(p.text, text) &&
        (p.createdAt === null || p.createdAt >= oldest) &&
        !skip(p.platformPostId),
    ) ?? null
  );
}

/** An adapter's lookupPost on top of its listRecentPosts: found, absent from a whole listing, or why not. */
export async function lookupInListing(
  list: (input: RecentPostsInput) => Promise<RecentPosts>,
  input: PostLookupInput,
  now: () => number,
): Promise<PostLookup> {
  const listing = await list({ ...input, deadline: now() + LISTING_BUDGET_MS });
  if (listing.kind !== 'listed') return listing;
  const found = matchIn(listing, input.text, input.since, (id) => input.exclude?.includes(id) ?? false);
  return found
    ? { kind: 'found', post: { platformPostId: found.platformPostId, platformUrl: found.platformUrl } }
    : { kind: 'absent' };
}

/** The reason a listing gives when its time ran out before it reached back far enough. */
export const outOfTime = (platform: string) =>
  `${platform} did not list the member’s posts back to the create within ${LISTING_BUDGET_MS / 1000} s`;

import type { AppDeps } from '../../../context.ts';
import type { RecentPosts } from '../../../platforms/platform.ts';
import { LISTING_BUDGET_MS } from '../../../platforms/recent-posts.ts';
import type { ChannelAccess } from '../../channels/channel-access.ts';
import type { Claim } from './claims.ts';

/**
 * One listing of a channel's recent posts serves every pending recovery of that channel. A
 * crash leaves many creates in doubt on one channel (a burst's worth); asking the platform
 * once per post listed the same pages again for each, and a listing cut at a count of pages
 * gave up on a busy channel. Here the sweep notes, when it takes claims over, the oldest create
 * in doubt of each channel (`expectLookups`); the first look-up of that channel lists back to
 * it, bounded by time (LISTING_BUDGET_MS), and every other look-up of the channel whose claim
 * was taken before that listing started reads the same answer. A listing started before a
 * claim was taken is never used for it: the create in doubt might have landed after it.
 */
export interface ChannelListing {
  /** When the listing was asked for (deps.clock). */
  startedAt: number;
  /** The oldest create time it reaches back to. */
  since: number;
  result: Promise<RecentPosts>;
  /** Platform ids recovery matched to a post of ours from this listing (never matched twice). */
  taken: Set<string>;
}

interface ChannelEntry {
  /** The oldest create in doubt noted since the last listing started. */
  wanted: number | null;
  current: ChannelListing | null;
}

declare module '../../../context.ts' {
  interface ProcessMemory {
    /** The latest recovery listing of each channel, and the creates waiting for the next (channel-listing.ts). */
    channelListings: Map<string, ChannelEntry>;
  }
}

/** How long a listing's answer stays in memory after it is read (one take-over's look-ups reuse it). */
const KEEP_MS = 2 * LISTING_BUDGET_MS;

/** Notes the creates in doubt of claims just taken over, so each channel's first listing reaches the oldest. */
export function expectLookups(deps: AppDeps, claims: Claim[]): void {
  for (const { row } of claims) {
    if (row.createSentAt === null || row.channelId === null) continue;
    const entry = deps.memory.channelListings.get(row.channelId) ?? { wanted: null, current: null };
    entry.wanted = Math.min(entry.wanted ?? row.createSentAt, row.createSentAt);
    deps.memory.channelListings.set(row.channelId, entry);
  }
}

/**
 * The channel's recent posts back to `since` as seen after `notBefore` (the recovering claim's
 * time): the listing in memory when it qualifies, else a new one reaching back to the oldest
 * create in doubt noted for the channel.
 */
export function channelListing(
  deps: AppDeps,
  access: Pick<ChannelAccess, 'platform' | 'accessToken' | 'authorRef'>,
  channelId: string,
  since: number,
  notBefore: number,
): ChannelListing | null {
  const { platform, accessToken, authorRef } = access;
  if (!platform.listRecentPosts) return null;
  const listings = deps.memory.channelListings;
  const entry = listings.get(channelId) ?? { wanted: null, current: null };
  const current = entry.current;
  const now = deps.clock.now();
  // A listing dated after now was made before the clock was set back: its order is unknown.
  if (current && current.startedAt >= notBefore && current.startedAt <= now && current.since <= since)
    return current;
  const from = Math.min(since, entry.wanted ?? since);
  const listing: ChannelListing = {
    startedAt: now,
    since: from,
    result: platform.listRecentPosts({
      accessToken,
      authorRef,
      since: from,
      deadline: now + LISTING_BUDGET_MS,
    }),
    taken: new Set(),
  };
  entry.current = listing;
  entry.wanted = null;
  listings.set(channelId, entry);
  // Forget it a while after it answered (or failed), unless a newer one replaced it.
  const forget = () => {
    setTimeout(() => {
      const latest = listings.get(channelId);
      if (latest?.current === listing && latest.wanted === null) listings.delete(channelId);
    }, KEEP_MS).unref();
  };
  listing.result.then(forget, forget);
  return listing;
}

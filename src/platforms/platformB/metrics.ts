import type { PostMetrics } from '../platform.ts';
import { dataOf, getCall, sendExpecting, withRetries } from './http.ts';
import type { ResolvedOptions } from './options.ts';

const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

/**
 * PLATFORM_B.md mapping: likes = like_count, comments = reply_count, shares = retweet_count +
 * quote_count, impressions = impression_count, clicks = url_link_clicks. A counter the answer
 * leaves out is null, never 0 (`non_public_metrics` exists only for the member's own posts
 * younger than 30 days).
 */
export function mapMetrics(data: Record<string, unknown>): PostMetrics {
  const pub = (data.public_metrics ?? {}) as Record<string, unknown>;
  const priv = (data.non_public_metrics ?? {}) as Record<string, unknown>;
  const retweets = count(pub.retweet_count);
  const quotes = count(pub.quote_count);
  return {
    impressions: count(pub.impression_count),
    likes: count(pub.like_count),
    comments: count(pub.reply_count),
    shares: retweets === null && quotes === null ? null : (retweets ?? 0) + (quotes ?? 0),
    clicks: count(priv.url_link_clicks),
  };
}

export async function metrics(
  opts: ResolvedOptions,
  input: { accessToken: string; platformPostId: string },
): Promise<PostMetrics> {
  const what = "read the post's metrics";
  const path = `/2/tweets/${encodeURIComponent(input.platformPostId)}?tweet.fields=public_metrics,non_public_metrics`;
  const answer = await withRetries(opts, () =>
    sendExpecting(getCall(opts, input.accessToken, what, path), [200]),
  );
  return mapMetrics(dataOf(answer, what));
}

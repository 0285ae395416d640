import { countedLength } from '../../../packages/client/src/text-length.ts';
import {
  LOOKUP_SKEW_MS,
  PlatformError,
  type PostLookup,
  type PostLookupInput,
  type PublishedPost,
  type PublishRequest,
  type RecentPost,
  type RecentPosts,
  type RecentPostsInput,
} from '../platform.ts';
import { lookupInListing, outOfTime } from '../recent-posts.ts';
import type { HttpCall } from '../transport.ts';
import { dataOf, getCall, sendExpecting, withRetries } from './http.ts';
import { planMedia, uploadMedia } from './media.ts';
import { bearer, type ResolvedOptions } from './options.ts';
import { platformBProfile } from './profile.ts';

/** Every platformB part is a post: one limit, counted with URLs weighted (profile.ts). */
const PART = platformBProfile.post;

/**
 * The live URL names the author; without a handle the platform's id-only form still resolves.
 * A configured template (the sandbox's own post pages) wins.
 */
export const postUrl = (id: string, handle?: string | null, template: string | null = null) => {
  if (template) return template.replace('{id}', encodeURIComponent(id));
  const username = handle?.replace(/^@/, '');
  return username
    ? `https://x.com/${encodeURIComponent(username)}/status/${id}`
    : `https://x.com/i/web/status/${id}`;
};

/** The exact create body of PLATFORM_B.md. */
export function createBody(text: string, mediaIds: string[], replyTo: string | null | undefined) {
  return {
    ...(text === '' ? {} : { text }),
    ...(mediaIds.length > 0 ? { media: { media_ids: mediaIds } } : {}),
    ...(replyTo ? { reply: { in_reply_to_tweet_id: replyTo } } : {}),
  };
}

/**
 * Checks the text and media, uploads the media, then sends the create exactly once
 * (`beforeCreate` runs right before it leaves). A thread part passes `replyTo`.
 */
export async function publish(opts: ResolvedOptions, input: PublishRequest): Promise<PublishedPost> {
  const length = countedLength(PART.counting, input.text);
  if (length > PART.max) {
    throw new PlatformError(
      'bad_request',
      `A platformB post is at most ${PART.max} characters (URLs count ${PART.counting.urlWeight}); this one is ${length}.`,
    );
  }
  const plan = planMedia(input.media);
  if (input.text.trim() === '' && plan.length === 0) {
    throw new PlatformError('bad_request', 'A platformB post needs text or media.');
  }
  const mediaIds: string[] = [];
  for (const item of plan) mediaIds.push(await uploadMedia(opts, input.accessToken, item));
  const body = JSON.stringify(createBody(input.text, mediaIds, input.replyTo));
  if (input.beforeCreate) await input.beforeCreate();
  const call: HttpCall = {
    kind: 'create',
    what: input.replyTo ? 'create the reply' : 'create the post',
    method: 'POST',
    url: `${opts.apiUrl}/2/tweets`,
    headers: { ...bearer(input.accessToken), 'content-type': 'application/json' },
    body,
    timeoutMs: opts.requestTimeoutMs,
    secrets: [input.accessToken],
  };
  // Never retried: the platform has no idempotency key, so a second send could post twice.
  const answer = await sendExpecting(call, [200, 201]);
  const id = (answer.json as { data?: { id?: unknown } } | null)?.data?.id;
  if (typeof id !== 'string' || id === '') {
    throw new PlatformError(
      'outcome_unknown',
      'platformB accepted the post but did not say its id; it is not re-sent.',
      {
        status: answer.status,
      },
    );
  }
  return { platformPostId: id, platformUrl: postUrl(id, input.handle, opts.postUrl) };
}

/** Exactly the text sent: platformB lists a post's text as it was created. */
const sameText = (listed: string, sent: string) => listed === sent;

/**
 * Crash recovery: the member's own posts (thread parts and replies included) created since
 * `since` (less the skew allowance), newest first, 100 a page, followed to the end of the
 * listing or until `deadline` (then `cannot_tell`). The platform's own window: its timeline
 * lists only the member's `timelineLimit` most recent posts (3,200 on the live platform); a
 * listing that ends having shown that many may have lost older ones, so it is `out_of_reach`
 * (asking again only moves the window further on).
 */
export async function listRecentPosts(opts: ResolvedOptions, input: RecentPostsInput): Promise<RecentPosts> {
  const start = new Date(input.since - LOOKUP_SKEW_MS).toISOString();
  const posts: RecentPost[] = [];
  let next: string | null = null;
  for (let page = 0; ; page++) {
    if (page > 0 && opts.now() >= input.deadline)
      return { kind: 'cannot_tell', reason: outOfTime('platformB') };
    const query = `max_results=100&start_time=${encodeURIComponent(start)}${next ? `&pagination_token=${encodeURIComponent(next)}` : ''}`;
    const path = `/2/users/${encodeURIComponent(input.authorRef)}/tweets?${query}`;
    const answer = await withRetries(opts, () =>
      sendExpecting(getCall(opts, input.accessToken, 'list the member posts', path), [200]),
    );
    const body = (answer.json ?? {}) as { data?: unknown; meta?: { next_token?: unknown } };
    if (body.data !== undefined && !Array.isArray(body.data))
      return { kind: 'cannot_tell', reason: 'platformB listed the member’s posts in an unexpected shape' };
    for (const t of (body.data ?? []) as { id?: unknown; text?: unknown; created_at?: unknown }[]) {
      if (typeof t.id !== 'string' || typeof t.text !== 'string') continue;
      const created = typeof t.created_at === 'string' ? Date.parse(t.created_at) : Number.NaN;
      posts.push({
        platformPostId: t.id,
        platformUrl: postUrl(t.id, null, opts.postUrl),
        text: t.text,
        createdAt: Number.isNaN(created) ? null : created,
      });
    }
    next = typeof body.meta?.next_token === 'string' ? body.meta.next_token : null;
    if (next) continue;
    if (posts.length >= opts.timelineLimit) {
      return {
        kind: 'out_of_reach',
        reason: `platformB lists only a member’s ${opts.timelineLimit.toLocaleString('en-US')} most recent posts, and as many were created since`,
      };
    }
    return { kind: 'listed', posts, sameText };
  }
}

/**
 * Crash recovery's question about one post or reply: the first with exactly this text among the
 * member's posts since `since` (listRecentPosts). `absent` only when the listing was read to its end.
 */
export const lookupPost = (opts: ResolvedOptions, input: PostLookupInput): Promise<PostLookup> =>
  lookupInListing((i) => listRecentPosts(opts, i), input, opts.now);

export async function findPublished(
  opts: ResolvedOptions,
  input: PostLookupInput,
): Promise<PublishedPost | null> {
  const found = await lookupPost(opts, input);
  return found.kind === 'found' ? found.post : null;
}

export async function deletePost(
  opts: ResolvedOptions,
  input: { accessToken: string; platformPostId: string },
): Promise<void> {
  const call: HttpCall = {
    ...getCall(
      opts,
      input.accessToken,
      'delete the post',
      `/2/tweets/${encodeURIComponent(input.platformPostId)}`,
    ),
    method: 'DELETE',
  };
  try {
    const answer = await withRetries(opts, () => sendExpecting(call, [200]));
    dataOf(answer, 'delete the post');
  } catch (err) {
    // Already gone is what was asked for.
    if (err instanceof PlatformError && err.status === 404) return;
    throw err;
  }
}

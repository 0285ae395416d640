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
import { failure, type HttpCall, headerValue, send, sendExpecting, withRetries } from './http.ts';
import { escapeLittleText } from './little-text.ts';
import { planContent, uploadContent } from './media.ts';
import { type ResolvedOptions, restHeaders } from './options.ts';

export const postUrl = (urn: string, template: string | null = null) =>
  template
    ? template.replace('{id}', encodeURIComponent(urn))
    : `https://www.linkedin.com/feed/update/${urn}`;

/** The exact create-post body of PLATFORM_A.md. */
export function postBody(author: string, text: string, content: Record<string, unknown> | null) {
  return {
    author,
    commentary: escapeLittleText(text),
    visibility: 'PUBLIC',
    distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
    lifecycleState: 'PUBLISHED',
    isReshareDisabledByAuthor: false,
    ...(content ? { content } : {}),
  };
}

/**
 * Uploads media, then sends the create exactly once. The media plan is checked before any
 * upload; `beforeCreate` runs after the uploads and right before the create leaves.
 */
export async function publish(opts: ResolvedOptions, input: PublishRequest): Promise<PublishedPost> {
  const plan = planContent(input.media);
  const content = await uploadContent(opts, input.accessToken, input.authorRef, plan);
  const body = JSON.stringify(postBody(input.authorRef, input.text, content));
  if (input.beforeCreate) await input.beforeCreate();
  const call: HttpCall = {
    kind: 'create',
    what: 'create the post',
    method: 'POST',
    url: `${opts.apiUrl}/rest/posts`,
    headers: { ...restHeaders(opts, input.accessToken), 'content-type': 'application/json' },
    body,
    timeoutMs: opts.requestTimeoutMs,
    secrets: [input.accessToken],
  };
  // Never retried: the platform has no idempotency key, so a second send could post twice.
  const answer = await sendExpecting(call, [201]);
  const urn = headerValue(answer.headers, 'x-restli-id') ?? headerValue(answer.headers, 'x-linkedin-id');
  if (!urn) {
    throw new PlatformError(
      'outcome_unknown',
      'platformA accepted the post but did not say its id; it is not re-sent.',
      { status: answer.status },
    );
  }
  return { platformPostId: urn, platformUrl: postUrl(urn, opts.postUrl) };
}

interface PostElement {
  id?: unknown;
  commentary?: unknown;
  createdAt?: unknown;
  publishedAt?: unknown;
  lifecycleState?: unknown;
}

const PAGE = 50;

const createdOf = (el: PostElement) =>
  typeof el.createdAt === 'number'
    ? el.createdAt
    : typeof el.publishedAt === 'number'
      ? el.publishedAt
      : null;

/** A listed commentary is a text Postkit sent when it is that text's little-text form (or the text itself). */
const sameText = (listed: string, sent: string) => listed === escapeLittleText(sent) || listed === sent;

/**
 * Crash recovery: the member's posts created since `since` (less the skew allowance), newest
 * first, through the Posts "find by author" finder, page after page until a post older than
 * that or the end of the listing, or until `deadline` (then `cannot_tell`). The live platform
 * restricts that finder to partner apps and answers 403: `out_of_reach`, a permission the app
 * lacks, which asking again cannot change.
 */
export async function listRecentPosts(opts: ResolvedOptions, input: RecentPostsInput): Promise<RecentPosts> {
  const oldest = input.since - LOOKUP_SKEW_MS;
  const posts: RecentPost[] = [];
  for (let page = 0; ; page++) {
    if (page > 0 && opts.now() >= input.deadline)
      return { kind: 'cannot_tell', reason: outOfTime('platformA') };
    const call: HttpCall = {
      kind: 'read',
      what: 'list the member posts',
      method: 'GET',
      url: `${opts.apiUrl}/rest/posts?author=${encodeURIComponent(input.authorRef)}&q=author&count=${PAGE}&start=${page * PAGE}&sortBy=CREATED`,
      headers: restHeaders(opts, input.accessToken),
      timeoutMs: opts.requestTimeoutMs,
      secrets: [input.accessToken],
    };
    const answer = await withRetries(opts.retry, async () => {
      const a = await send(call);
      if (a.status === 403 || a.status === 200) return a;
      throw failure(call, a);
    });
    if (answer.status === 403)
      // A permission of the app, not a passing refusal: asking again cannot help.
      return {
        kind: 'out_of_reach',
        reason: 'platformA does not let this app list the member’s posts (403)',
      };
    const elements = ((answer.json as { elements?: unknown } | null)?.elements ?? []) as PostElement[];
    if (!Array.isArray(elements))
      return { kind: 'cannot_tell', reason: 'platformA listed the member’s posts in an unexpected shape' };
    let older = false;
    for (const el of elements) {
      const created = createdOf(el);
      if (created !== null && created < oldest) {
        older = true;
        continue;
      }
      if (typeof el.id !== 'string' || typeof el.commentary !== 'string' || el.lifecycleState === 'DELETED')
        continue;
      posts.push({
        platformPostId: el.id,
        platformUrl: postUrl(el.id, opts.postUrl),
        text: el.commentary,
        createdAt: created,
      });
    }
    if (older || elements.length < PAGE) return { kind: 'listed', posts, sameText };
  }
}

/**
 * Crash recovery's question about one post: one with the same commentary among the member's
 * posts since `since` (listRecentPosts). `absent` only when the whole listing back to then was read.
 */
export const lookupPost = (opts: ResolvedOptions, input: PostLookupInput): Promise<PostLookup> =>
  lookupInListing((i) => listRecentPosts(opts, i), input, opts.now);

/** The post if the platform shows it; null when it does not or cannot tell. */
export async function findPublished(
  opts: ResolvedOptions,
  input: PostLookupInput,
): Promise<PublishedPost | null> {
  const lookup = await lookupPost(opts, input);
  return lookup.kind === 'found' ? lookup.post : null;
}

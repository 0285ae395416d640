import { countedLength } from '../../../packages/client/src/text-length.ts';
import {
  PlatformError,
  type PostLookup,
  type PostLookupInput,
  type PublishedPost,
  type PublishRequest,
} from '../platform.ts';
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

const MAX_PAGES = 5;
/** Clock skew allowance between this host and the platform when listing by creation time. */
const SKEW_MS = 120_000;

/**
 * Crash recovery: the member's own posts created since `since` (minus skew), newest first, up
 * to 500; the first with exactly this text is the one whose create answer was lost. `absent`
 * only when the listing was read to its end; more than MAX_PAGES pages is "cannot tell".
 */
export async function lookupPost(opts: ResolvedOptions, input: PostLookupInput): Promise<PostLookup> {
  const start = new Date(input.since - SKEW_MS).toISOString();
  let next: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = `max_results=100&start_time=${encodeURIComponent(start)}${next ? `&pagination_token=${encodeURIComponent(next)}` : ''}`;
    const path = `/2/users/${encodeURIComponent(input.authorRef)}/tweets?${query}`;
    const answer = await withRetries(opts, () =>
      sendExpecting(getCall(opts, input.accessToken, 'list the member posts', path), [200]),
    );
    const body = (answer.json ?? {}) as { data?: unknown; meta?: { next_token?: unknown } };
    if (body.data !== undefined && !Array.isArray(body.data))
      return { kind: 'cannot_tell', reason: 'platformB listed the member’s posts in an unexpected shape' };
    const items = (body.data ?? []) as { id?: unknown; text?: unknown }[];
    const match = items.find(
      (t) => typeof t.id === 'string' && t.text === input.text && !input.exclude?.includes(t.id),
    );
    if (match) {
      const id = match.id as string;
      return { kind: 'found', post: { platformPostId: id, platformUrl: postUrl(id, null, opts.postUrl) } };
    }
    next = typeof body.meta?.next_token === 'string' ? body.meta.next_token : null;
    if (!next) return { kind: 'absent' };
  }
  return { kind: 'cannot_tell', reason: `more than ${MAX_PAGES * 100} posts since the create was sent` };
}

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

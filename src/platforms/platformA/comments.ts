import { type CommentLookup, PlatformError, type PublishedComment } from '../platform.ts';
import { type HttpCall, headerValue, sendExpecting, withRetries } from './http.ts';
import { type ResolvedOptions, restHeaders } from './options.ts';

/** A post's first comment (PLATFORM_A.md "Comments"): plain text, at most 1,250 characters. */
export const PLATFORM_A_MAX_COMMENT = 1250;

const commentsPath = (postUrn: string) => `/rest/socialActions/${encodeURIComponent(postUrn)}/comments`;

/** Creates the comment once (never retried: the platform has no idempotency key). */
export async function comment(
  opts: ResolvedOptions,
  input: {
    accessToken: string;
    authorRef: string;
    parentId: string;
    text: string;
    beforeCreate?: () => Promise<void>;
  },
): Promise<PublishedComment> {
  if ([...input.text].length > PLATFORM_A_MAX_COMMENT) {
    throw new PlatformError(
      'bad_request',
      `A platformA comment is at most ${PLATFORM_A_MAX_COMMENT} characters.`,
    );
  }
  const body = JSON.stringify({
    actor: input.authorRef,
    object: input.parentId,
    message: { text: input.text },
  });
  if (input.beforeCreate) await input.beforeCreate();
  const call: HttpCall = {
    kind: 'create',
    what: 'create the comment',
    method: 'POST',
    url: `${opts.apiUrl}${commentsPath(input.parentId)}`,
    headers: { ...restHeaders(opts, input.accessToken), 'content-type': 'application/json' },
    body,
    timeoutMs: opts.requestTimeoutMs,
    secrets: [input.accessToken],
  };
  const answer = await sendExpecting(call, [201]);
  const id = headerValue(answer.headers, 'x-restli-id');
  if (!id) {
    throw new PlatformError(
      'outcome_unknown',
      'platformA accepted the comment but did not say its id; it is not re-sent.',
      {
        status: answer.status,
      },
    );
  }
  return { commentId: id };
}

/** Recovery: the member's comment with exactly this text under the post, made since `since`. */
export async function findComment(
  opts: ResolvedOptions,
  input: { accessToken: string; authorRef: string; parentId: string; text: string; since: number },
): Promise<PublishedComment | null> {
  const answer = await withRetries(opts.retry, () =>
    sendExpecting(
      {
        kind: 'read',
        what: 'list the post comments',
        method: 'GET',
        url: `${opts.apiUrl}${commentsPath(input.parentId)}`,
        headers: restHeaders(opts, input.accessToken),
        timeoutMs: opts.requestTimeoutMs,
        secrets: [input.accessToken],
      },
      [200],
    ),
  );
  const elements = (answer.json as { elements?: unknown } | null)?.elements;
  if (!Array.isArray(elements)) return null;
  const oldest = input.since - 120_000;
  for (const el of elements as {
    id?: unknown;
    actor?: unknown;
    message?: { text?: unknown };
    created?: { time?: unknown };
  }[]) {
    const time = typeof el.created?.time === 'number' ? el.created.time : null;
    if (time !== null && time < oldest) continue;
    if (typeof el.id === 'string' && el.actor === input.authorRef && el.message?.text === input.text) {
      return { commentId: el.id };
    }
  }
  return null;
}

/**
 * Recovery's question about a first comment whose answer was lost. Found, or `cannot_tell`:
 * platformA does not refuse a repeated comment (PLATFORM_A.md lists no duplicate check for
 * comments), so a comment missing from the listing is never proof enough to send it again.
 */
export async function lookupComment(
  opts: ResolvedOptions,
  input: { accessToken: string; authorRef: string; parentId: string; text: string; since: number },
): Promise<CommentLookup> {
  const found = await findComment(opts, input);
  if (found) return { kind: 'found', comment: found };
  return {
    kind: 'cannot_tell',
    reason: 'platformA does not list such a comment, but it would not refuse a repeated one either',
  };
}

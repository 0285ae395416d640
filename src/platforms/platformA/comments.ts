import { countedLength } from '../../../packages/client/src/text-length.ts';
import { type CommentLookup, PlatformError, type PublishedComment } from '../platform.ts';
import { type HttpCall, headerValue, sendExpecting, withRetries } from './http.ts';
import { type ResolvedOptions, restHeaders } from './options.ts';
import { platformAProfile } from './profile.ts';

/** A post's first comment (PLATFORM_A.md "Comments"): plain text, at most 1,250 characters. */
const COMMENT = platformAProfile.firstComment.limit;

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
  if (countedLength(COMMENT.counting, input.text) > COMMENT.max) {
    throw new PlatformError('bad_request', `A platformA comment is at most ${COMMENT.max} characters.`);
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

type CommentInput = { accessToken: string; authorRef: string; parentId: string; text: string; since: number };

interface ListedComment {
  id?: unknown;
  actor?: unknown;
  message?: { text?: unknown };
  created?: { time?: unknown };
}

/**
 * The post's comments as the platform lists them, or null when the answer is not a whole
 * listing (no `elements` array, or paging that says more exist than were returned).
 */
async function listComments(opts: ResolvedOptions, input: CommentInput): Promise<ListedComment[] | null> {
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
  const body = answer.json as { elements?: unknown; paging?: { total?: unknown } } | null;
  const elements = body?.elements;
  if (!Array.isArray(elements)) return null;
  const total = body?.paging?.total;
  if (typeof total === 'number' && total > elements.length) return null;
  return elements as ListedComment[];
}

/** The member's comment with exactly this text among `elements`, made since `since`. */
function findIn(elements: ListedComment[], input: CommentInput): PublishedComment | null {
  const oldest = input.since - 120_000;
  for (const el of elements) {
    const time = typeof el.created?.time === 'number' ? el.created.time : null;
    if (time !== null && time < oldest) continue;
    if (typeof el.id === 'string' && el.actor === input.authorRef && el.message?.text === input.text) {
      return { commentId: el.id };
    }
  }
  return null;
}

/** Recovery: the member's comment with exactly this text under the post, made since `since`. */
export async function findComment(
  opts: ResolvedOptions,
  input: CommentInput,
): Promise<PublishedComment | null> {
  const elements = await listComments(opts, input);
  return elements ? findIn(elements, input) : null;
}

/**
 * Recovery's question about a first comment whose answer was lost. The platform lists every
 * comment of a post (PLATFORM_A.md "Comments", List), so a whole listing without it is
 * `absent`: recovery, which runs a lease after the dead process's create left, sends it once.
 * platformA does not refuse a repeated comment, so that second send is the only one; an answer
 * that is not a whole listing is `cannot_tell`, and the comment is not sent again.
 */
export async function lookupComment(opts: ResolvedOptions, input: CommentInput): Promise<CommentLookup> {
  const elements = await listComments(opts, input);
  if (!elements) return { kind: 'cannot_tell', reason: 'platformA did not list all of the post’s comments' };
  const found = findIn(elements, input);
  return found ? { kind: 'found', comment: found } : { kind: 'absent' };
}

import { and, isNull, sql } from 'drizzle-orm';
import type { AppDeps } from '../../../context.ts';
import { posts } from '../../../db/schema/index.ts';
import type { PublishFailure } from '../../../domain/errors.ts';
import type { PostRow } from '../core/post-row.ts';
import { transitionPost } from '../core/transitions.ts';
import { type Claim, heldBy } from './claims.ts';

/**
 * A post is published as parts, in order: the post itself, each thread part (a reply to the
 * part before it), then the first comment (platformA a comment under the post, platformB a
 * reply to the last part). Each part is its own create on the platform, sent exactly once:
 * its id is recorded (`record_part`) before the next part is sent, so a publish interrupted
 * anywhere resumes at the first part not recorded, and `createSentAt` always belongs to that
 * part. The last part's id is written with the post's final `succeed`.
 */
export type PartKind = 'post' | 'reply' | 'comment';

export interface Part {
  /** 0 = the post, 1..n = thread parts, then the first comment. */
  index: number;
  kind: PartKind;
  text: string;
  /** For messages: `part 3 of 5 (thread[1])`, `the first comment`. */
  label: string;
  /** How many parts the post has. */
  of: number;
}

export function partsOf(row: Pick<PostRow, 'text' | 'thread' | 'firstComment'>): Part[] {
  const of = 1 + row.thread.length + (row.firstComment === null ? 0 : 1);
  const parts: Part[] = [{ index: 0, kind: 'post', text: row.text, label: `part 1 of ${of} (the post)`, of }];
  for (const [i, text] of row.thread.entries()) {
    parts.push({ index: i + 1, kind: 'reply', text, label: `part ${i + 2} of ${of} (thread[${i}])`, of });
  }
  if (row.firstComment !== null) {
    parts.push({ index: of - 1, kind: 'comment', text: row.firstComment, label: 'the first comment', of });
  }
  return parts;
}

/** What the platform has of the post so far, as recorded on the row. */
export interface Progress {
  platformPostId: string | null;
  platformUrl: string | null;
  threadPostIds: string[];
  firstCommentId: string | null;
}

export const progressOf = (row: PostRow): Progress => ({
  platformPostId: row.platformPostId,
  platformUrl: row.platformUrl,
  threadPostIds: row.threadPostIds,
  firstCommentId: row.firstCommentId,
});

/** The index of the first part not known to be published (parts.length when all are). */
export function nextPart(progress: Progress, parts: Part[]): number {
  if (progress.platformPostId === null) return 0;
  const next = 1 + progress.threadPostIds.length;
  return parts[next]?.kind === 'comment' && progress.firstCommentId !== null ? next + 1 : next;
}

/** Where a part goes: a thread part replies to the part before it, the comment to the last one. */
export function parentOf(progress: Progress, part: Part): string | null {
  if (part.kind === 'post' || progress.platformPostId === null) return null;
  const ids = [progress.platformPostId, ...progress.threadPostIds];
  return part.kind === 'reply' ? (ids[part.index - 1] ?? null) : ids[ids.length - 1]!;
}

/** Progress with `part` published as `id`. */
export function withPart(progress: Progress, part: Part, id: string, url: string | null): Progress {
  if (part.kind === 'post') return { ...progress, platformPostId: id, platformUrl: url };
  if (part.kind === 'reply') return { ...progress, threadPostIds: [...progress.threadPostIds, id] };
  return { ...progress, firstCommentId: id };
}

/**
 * Records a published part (not the last: that one is written with `succeed`) and clears
 * `createSentAt`, before the next part is sent. Conditional on the claim and on the part not
 * being recorded yet. On success the claim's row is the new one, and its attempts count starts
 * again at 1: a long thread that meets the rate limit more than once is not given up for it.
 */
export async function recordPart(deps: AppDeps, claim: Claim, part: Part, progress: Progress) {
  const notYet =
    part.kind === 'post'
      ? isNull(posts.platformPostId)
      : part.kind === 'reply'
        ? sql`jsonb_array_length(${posts.threadPostIds}) = ${part.index - 1}`
        : isNull(posts.firstCommentId);
  const [row] = await transitionPost(deps.db, 'record_part', and(heldBy(claim), notYet), {
    ...progress,
    createSentAt: null,
    publishAttempts: 1,
    updatedAt: deps.clock.now(),
  });
  if (row) claim.row = row;
  return row !== undefined;
}

/** A part's failure, named: the post's `error` says which part and what stays published. */
export function partFailure(part: Part, failure: PublishFailure): PublishFailure {
  return { ...failure, message: inPart(part, failure.message) };
}

/** A message about one part; a post of one part keeps the message as it was. */
export function inPart(part: Part, message: string): string {
  if (part.of === 1) return message;
  const before =
    part.kind === 'comment'
      ? part.of === 2
        ? ' The post itself is published.'
        : ' The post and its thread are published.'
      : part.index === 0
        ? ''
        : part.index === 1
          ? ' The part before it stays published (platformPostIds).'
          : ` The ${part.index} parts before it stay published (platformPostIds).`;
  return `${part.label[0]!.toUpperCase()}${part.label.slice(1)}: ${message}${before}`;
}

import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../../context.ts';
import { posts } from '../../../db/schema/index.ts';
import type { PublishFailure } from '../../../domain/errors.ts';
import { LOOKUP_RETRY, nextDelayMs, PUBLISH_RETRY } from '../../../jobs/schedules.ts';
import { SweepName } from '../../../wake/sweep-names.ts';
import type { PostRow } from '../core/post-row.ts';
import { type PostChanges, transitionPost } from '../core/transitions.ts';
import { type Claim, heldBy } from './claims.ts';
import { writeFinal } from './outcome-writer.ts';
import { nextPart, partsOf, progressOf } from './parts.ts';

/** How a publish attempt ended, as the publish-now route and the sweep see it. */
export type Outcome =
  | { kind: 'published'; row: PostRow }
  /** Terminal: `failure` is what publish-now answers (channel_* conflicts, publish_failed...). */
  | { kind: 'failed'; row: PostRow; failure: PublishFailure }
  /** Back to `scheduled` until `retryAt`: a transient failure before the platform acted. */
  | { kind: 'retrying'; row: PostRow; retryAt: number; message: string }
  /**
   * Still `publishing`, released until `retryAt`: recovery could not yet tell whether a create
   * in doubt landed, and asks the platform again then (markLookupPending).
   */
  | { kind: 'pending'; row: PostRow; retryAt: number; message: string }
  /** The claim was lost (canceled meanwhile, deleted, or taken over): nothing was written. */
  | { kind: 'lost' };

/** Attempts (claims) a post gets before a transient failure becomes final. */
export const MAX_PUBLISH_ATTEMPTS = 5;

/** 30 s, 2 min, 8 min, 32 min after attempts 1-4 (the jobs kit's PUBLISH_RETRY). */
export const retryDelayMs = (attempt: number) => nextDelayMs(PUBLISH_RETRY, attempt)!;

/**
 * A terminal write and its event, in one transaction (shared with the outcomes of other posts
 * that finish meanwhile: outcome-writer.ts). Retried briefly when the database hiccups: after
 * a successful create, losing this write would leave the outcome to recovery.
 */
async function finalize(
  deps: AppDeps,
  claim: Claim,
  event: 'succeed' | 'fail',
  changes: PostChanges,
): Promise<PostRow | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeFinal(deps, { claim, event, changes });
    } catch (err) {
      if (attempt >= 3) throw err;
      deps.log.warn({ err, postId: claim.row.id }, 'could not record a publish outcome; retrying');
      await delay(250 * 2 ** attempt);
    }
  }
}

/** What the platform has of a published post: the post, and its thread parts and first comment if any. */
export interface PublishedParts {
  platformPostId: string | null;
  platformUrl: string | null;
  threadPostIds?: string[];
  firstCommentId?: string | null;
}

export async function markPublished(deps: AppDeps, claim: Claim, result: PublishedParts): Promise<Outcome> {
  const row = await finalize(deps, claim, 'succeed', {
    publishedAt: deps.clock.now(),
    platformPostId: result.platformPostId,
    platformUrl: result.platformUrl,
    ...(result.threadPostIds ? { threadPostIds: result.threadPostIds } : {}),
    ...(result.firstCommentId !== undefined ? { firstCommentId: result.firstCommentId } : {}),
    error: null,
  });
  return row ? { kind: 'published', row } : { kind: 'lost' };
}

/** The code in `error` of a published post whose first comment could not be placed. */
export const FIRST_COMMENT_FAILED = 'first_comment_failed';

/**
 * `error` on the post reads `<code>: <message>`, so clients can branch on the code.
 *
 * A failure of the first comment does not fail the post: when the only part left is the
 * comment, the post and its thread are live, so the post ends `published` (with
 * `post.published`) and `error` reads `first_comment_failed: The first comment: <why> ...`
 * (docs/decisions.md, "A first comment that cannot be placed").
 */
export async function markFailed(deps: AppDeps, claim: Claim, failure: PublishFailure): Promise<Outcome> {
  const parts = partsOf(claim.row);
  const progress = progressOf(claim.row);
  if (parts[nextPart(progress, parts)]?.kind === 'comment') {
    const row = await finalize(deps, claim, 'succeed', {
      publishedAt: deps.clock.now(),
      platformPostId: progress.platformPostId,
      platformUrl: progress.platformUrl,
      threadPostIds: progress.threadPostIds,
      firstCommentId: null,
      error: `${FIRST_COMMENT_FAILED}: ${failure.message}`,
    });
    return row ? { kind: 'published', row } : { kind: 'lost' };
  }
  const row = await finalize(deps, claim, 'fail', {
    error: `${failure.code}: ${failure.message}`,
    retryAt: null,
  });
  return row ? { kind: 'failed', row, failure } : { kind: 'lost' };
}

/**
 * A transient failure before the platform acted: the post goes back to `scheduled` (its
 * `scheduledFor` unchanged, or the claim time for a draft) with `error` saying when the next
 * attempt is. The sweep picks it up once `retryAt` passes. Past the last attempt it fails.
 */
/** `notBefore`: the platform's own earliest retry time (a 429's reset), when it said one. */
export async function markRetry(
  deps: AppDeps,
  claim: Claim,
  message: string,
  notBefore: number | null = null,
): Promise<Outcome> {
  const attempts = claim.row.publishAttempts;
  if (attempts >= MAX_PUBLISH_ATTEMPTS) {
    return markFailed(deps, claim, {
      reason: 'platform',
      code: 'publish_failed',
      message: `${message} Gave up after ${attempts} attempts.`,
    });
  }
  const now = deps.clock.now();
  const retryAt = Math.max(now + retryDelayMs(attempts), notBefore ?? 0);
  const text = `${message} Attempt ${attempts} of ${MAX_PUBLISH_ATTEMPTS}; retrying automatically at ${new Date(retryAt).toISOString()}.`;
  const [row] = await transitionPost(deps.db, 'retry', heldBy(claim), {
    scheduledFor: sql`coalesce(${posts.scheduledFor}, ${claim.row.claimedAt ?? now})`,
    retryAt,
    error: `platform_unavailable: ${text}`,
    // Only reached when the platform did not act on a create (if one was sent at all).
    createSentAt: null,
    claimedAt: null,
    claimedBy: null,
    updatedAt: now,
  });
  if (!row) return { kind: 'lost' };
  deps.wake(SweepName.publish, retryAt);
  return { kind: 'retrying', row, retryAt, message: text };
}

/** The code in `error` of a post whose create is in doubt while the platform cannot say yet. */
export const OUTCOME_PENDING = 'publish_outcome_pending';

/**
 * Recovery could not tell yet whether a create in doubt landed (the platform's listing failed
 * or was cut short, a same-text post was in flight): the post stays `publishing` with its
 * `createSentAt`, its claim released, and `error` saying why and when it is asked again. The
 * sweep takes it over at `retryAt` (reclaimStale) and looks again, on the jobs kit's
 * LOOKUP_RETRY schedule; the attempts counted are the claims of this part so far. `notBefore`:
 * no sooner than this (a create that left just now is given a lease to land).
 */
export async function markLookupPending(
  deps: AppDeps,
  claim: Claim,
  message: string,
  notBefore = 0,
): Promise<Outcome> {
  const now = deps.clock.now();
  const tries = Math.max(1, claim.row.publishAttempts - 1);
  const retryAt = Math.max(
    now + nextDelayMs(LOOKUP_RETRY, tries, deps.config.LOOKUP_BACKOFF_SCALE)!,
    notBefore,
  );
  const text = `${message} It is looked up again at ${new Date(retryAt).toISOString()}.`;
  const [row] = await transitionPost(deps.db, 'defer_lookup', heldBy(claim), {
    error: `${OUTCOME_PENDING}: ${text}`,
    retryAt,
    claimedAt: null,
    claimedBy: null,
    updatedAt: now,
  });
  if (!row) return { kind: 'lost' };
  deps.wake(SweepName.publish, retryAt);
  return { kind: 'pending', row, retryAt, message: text };
}

import { setTimeout as delay } from 'node:timers/promises';
import { and, eq, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context.ts';
import { posts } from '../../db/schema/index.ts';
import type { PublishedPost } from '../../platforms/platform.ts';
import { recordEvent } from '../events/events.service.ts';
import type { Claim } from './claims.ts';
import { type PostRow, toPost } from './post-row.ts';

/** How a publish attempt ended, as the publish-now route and the sweep see it. */
export type Outcome =
  | { kind: 'published'; row: PostRow }
  /** Terminal: `status`/`code` are what publish-now answers (409 channel_*, 502 publish_failed...). */
  | { kind: 'failed'; row: PostRow; status: number; code: string; message: string }
  /** Back to `scheduled` until `retryAt`: a transient failure before the platform acted. */
  | { kind: 'retrying'; row: PostRow; retryAt: number; message: string }
  /** The claim was lost (canceled meanwhile, deleted, or taken over): nothing was written. */
  | { kind: 'lost' };

/** Attempts (claims) a post gets before a transient failure becomes final. */
export const MAX_PUBLISH_ATTEMPTS = 5;
const RETRY_BASE_MS = 30_000;

/** 30 s, 2 min, 8 min, 32 min after attempts 1-4. */
export const retryDelayMs = (attempt: number) => RETRY_BASE_MS * 4 ** Math.max(0, attempt - 1);

const ownedBy = (claim: Claim) =>
  and(eq(posts.id, claim.row.id), eq(posts.claimedBy, claim.token), eq(posts.status, 'publishing'));

/**
 * A terminal write and its event, in one transaction. Retried briefly when the database
 * hiccups: after a successful create, losing this write would leave the outcome to recovery.
 */
async function finalize(
  deps: AppDeps,
  claim: Claim,
  set: Partial<typeof posts.$inferInsert>,
  event: 'post.published' | 'post.failed',
): Promise<PostRow | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.db.transaction(async (tx) => {
        const now = deps.clock.now();
        const [row] = await tx
          .update(posts)
          .set({ ...set, updatedAt: now })
          .where(ownedBy(claim))
          .returning();
        if (!row) return null;
        await recordEvent(tx, { accountId: row.accountId, type: event, data: { post: toPost(row) }, now });
        return row;
      });
    } catch (err) {
      if (attempt >= 3) throw err;
      deps.log.warn({ err, postId: claim.row.id }, 'could not record a publish outcome; retrying');
      await delay(250 * 2 ** attempt);
    }
  }
}

export async function markPublished(deps: AppDeps, claim: Claim, result: PublishedPost): Promise<Outcome> {
  const row = await finalize(
    deps,
    claim,
    {
      status: 'published',
      publishedAt: deps.clock.now(),
      platformPostId: result.platformPostId,
      platformUrl: result.platformUrl,
      error: null,
    },
    'post.published',
  );
  return row ? { kind: 'published', row } : { kind: 'lost' };
}

/** `error` on the post reads `<code>: <message>`, so clients can branch on the code. */
export async function markFailed(
  deps: AppDeps,
  claim: Claim,
  failure: { status: number; code: string; message: string },
): Promise<Outcome> {
  const row = await finalize(
    deps,
    claim,
    { status: 'failed', error: `${failure.code}: ${failure.message}`, retryAt: null },
    'post.failed',
  );
  return row ? { kind: 'failed', row, ...failure } : { kind: 'lost' };
}

/**
 * A transient failure before the platform acted: the post goes back to `scheduled` (its
 * `scheduledFor` unchanged, or the claim time for a draft) with `error` saying when the next
 * attempt is. The sweep picks it up once `retryAt` passes. Past the last attempt it fails.
 */
export async function markRetry(deps: AppDeps, claim: Claim, message: string): Promise<Outcome> {
  const attempts = claim.row.publishAttempts;
  if (attempts >= MAX_PUBLISH_ATTEMPTS) {
    return markFailed(deps, claim, {
      status: 502,
      code: 'publish_failed',
      message: `${message} Gave up after ${attempts} attempts.`,
    });
  }
  const now = deps.clock.now();
  const retryAt = now + retryDelayMs(attempts);
  const text = `${message} Attempt ${attempts} of ${MAX_PUBLISH_ATTEMPTS}; retrying automatically at ${new Date(retryAt).toISOString()}.`;
  const [row] = await deps.db
    .update(posts)
    .set({
      status: 'scheduled',
      scheduledFor: sql`coalesce(${posts.scheduledFor}, ${claim.row.claimedAt ?? now})`,
      retryAt,
      error: `platform_unavailable: ${text}`,
      // Only reached when the platform did not act on a create (if one was sent at all).
      createSentAt: null,
      claimedAt: null,
      claimedBy: null,
      updatedAt: now,
    })
    .where(ownedBy(claim))
    .returning();
  if (!row) return { kind: 'lost' };
  deps.wake('publish', retryAt);
  return { kind: 'retrying', row, retryAt, message: text };
}

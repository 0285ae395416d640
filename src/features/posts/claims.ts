import { and, asc, eq, gt, inArray, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context.ts';
import { posts } from '../../db/schema/index.ts';
import { randomBase62 } from '../../lib/ids.ts';
import type { PostRow } from './post-row.ts';

/**
 * Claims: the only ways a post enters `publishing`. Each is one atomic compare-and-set, so a
 * post is claimed by at most one caller whatever the number of API and worker processes.
 * The claim token (claimed_by) is unique per claim; every later write of the publish is
 * conditional on it, so a claim taken over by recovery can no longer write anything.
 */

export interface Claim {
  row: PostRow;
  token: string;
}

export const newClaimToken = (deps: AppDeps) => `${deps.instanceId}:${randomBase62(10)}`;

/** Due: scheduled, its time reached, and not waiting out a retry backoff. */
const dueCondition = (now: number) =>
  and(
    eq(posts.status, 'scheduled'),
    lte(posts.scheduledFor, now),
    or(isNull(posts.retryAt), lte(posts.retryAt, now)),
  );

const claimedValues = (token: string, now: number) => ({
  status: 'publishing',
  claimedAt: now,
  claimedBy: token,
  publishAttempts: sql`${posts.publishAttempts} + 1`,
  retryAt: null,
  updatedAt: now,
});

/** Publish-now: draft or scheduled -> publishing for one post of the account, or null if not claimable. */
export async function claimPost(deps: AppDeps, accountId: string, postId: string): Promise<Claim | null> {
  const token = newClaimToken(deps);
  const now = deps.clock.now();
  const [row] = await deps.db
    .update(posts)
    .set(claimedValues(token, now))
    .where(
      and(
        eq(posts.id, postId),
        eq(posts.accountId, accountId),
        inArray(posts.status, ['draft', 'scheduled']),
      ),
    )
    .returning();
  return row ? { row, token } : null;
}

/**
 * Locks up to `limit` rows matching `where` (skipping rows other workers hold) and updates
 * them in the same transaction. Two statements on purpose: with the locking select as a
 * subquery of the UPDATE, PostgreSQL may re-run it while updating and its LIMIT stops
 * holding, so one worker would claim every due row at once.
 */
async function lockAndUpdate(
  deps: AppDeps,
  where: SQL | undefined,
  order: SQL,
  limit: number,
  set: Partial<typeof posts.$inferInsert> | Record<string, unknown>,
): Promise<PostRow[]> {
  return deps.db.transaction(async (tx) => {
    const locked = await tx
      .select({ id: posts.id })
      .from(posts)
      .where(where)
      .orderBy(order)
      .limit(limit)
      .for('update', { skipLocked: true });
    if (locked.length === 0) return [];
    return tx
      .update(posts)
      .set(set)
      .where(
        inArray(
          posts.id,
          locked.map((r) => r.id),
        ),
      )
      .returning();
  });
}

/**
 * The due sweep: claims up to `limit` due posts, oldest due first. SKIP LOCKED lets several
 * workers claim disjoint batches at once instead of queueing on the same rows.
 */
export async function claimDue(deps: AppDeps, limit: number): Promise<Claim[]> {
  const token = newClaimToken(deps);
  const now = deps.clock.now();
  const rows = await lockAndUpdate(
    deps,
    dueCondition(now),
    asc(posts.scheduledFor),
    limit,
    claimedValues(token, now),
  );
  return rows.map((row) => ({ row, token }));
}

/**
 * Recovery: takes over posts whose claim was not renewed within the lease (the claiming
 * process died). The new token fences the old holder out, should it still be alive.
 */
export async function reclaimStale(deps: AppDeps, limit: number): Promise<Claim[]> {
  const token = newClaimToken(deps);
  const now = deps.clock.now();
  const stale = and(eq(posts.status, 'publishing'), lt(posts.claimedAt, now - deps.config.PUBLISH_LEASE_MS));
  const rows = await lockAndUpdate(deps, stale, asc(posts.claimedAt), limit, {
    claimedAt: now,
    claimedBy: token,
    publishAttempts: sql`${posts.publishAttempts} + 1`,
  });
  return rows.map((row) => ({ row, token }));
}

/** Keeps a claim alive while its publish runs (long uploads, video processing). */
export function startHeartbeat(deps: AppDeps, claim: Claim): { stop(): void } {
  const every = Math.max(50, Math.floor(deps.config.PUBLISH_LEASE_MS / 3));
  const timer = setInterval(() => {
    deps.db
      .update(posts)
      .set({ claimedAt: deps.clock.now() })
      .where(
        and(eq(posts.id, claim.row.id), eq(posts.claimedBy, claim.token), eq(posts.status, 'publishing')),
      )
      .catch((err) => deps.log.warn({ err, postId: claim.row.id }, 'could not renew a publish claim'));
  }, every);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * Records "create sent" just before the create request leaves; from then on no process
 * re-sends it. False when the claim was lost (canceled, or taken over by recovery): the
 * caller must not send. `resend` allows a second send within the same claim only after the
 * platform explicitly refused the first (e.g. an expired token, refreshed since).
 */
export async function markCreateSent(deps: AppDeps, claim: Claim, resend: boolean): Promise<boolean> {
  const [row] = await deps.db
    .update(posts)
    .set({ createSentAt: deps.clock.now() })
    .where(
      and(
        eq(posts.id, claim.row.id),
        eq(posts.claimedBy, claim.token),
        eq(posts.status, 'publishing'),
        resend ? undefined : isNull(posts.createSentAt),
      ),
    )
    .returning({ id: posts.id });
  return row !== undefined;
}

/**
 * The next time a scheduled post falls due after now, for the runner's early wake-up. Past-due
 * rows are the sweep's own business (claimed, or held by another worker, or waiting out a
 * retry), so only future times count: a past time here would make the runner spin.
 */
export async function nextScheduledAfter(deps: AppDeps, now: number): Promise<number | null> {
  const [row] = await deps.db
    .select({ at: posts.scheduledFor })
    .from(posts)
    .where(and(eq(posts.status, 'scheduled'), gt(posts.scheduledFor, now)))
    .orderBy(asc(posts.scheduledFor))
    .limit(1);
  return row?.at ?? null;
}

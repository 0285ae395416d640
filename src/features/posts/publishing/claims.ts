import { and, asc, eq, gt, gte, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { AppDeps } from '../../../context.ts';
import type { DbOrTx } from '../../../db/client.ts';
import { inTextsOf, jsonRecordset, jsonRowsText } from '../../../db/json-rows.ts';
import { reusableStatement } from '../../../db/reusable-statement.ts';
import { channels, posts } from '../../../db/schema/index.ts';
import { claimBatch, claimBatchStatement } from '../../../jobs/claim-batch.ts';
import { groupCommit } from '../../../jobs/group-commit.ts';
import { randomBase62 } from '../../../lib/ids.ts';
import { SweepName } from '../../../wake/sweep-names.ts';
import type { ChannelRow } from '../../channels/channel-row.ts';
import type { PostRow } from '../core/post-row.ts';
import { targetOf, transitionAllowed, transitionAllowedByKey, transitionPost } from '../core/transitions.ts';

/**
 * Claims: the only ways a post enters `publishing` (`publish_now`, `fall_due`, `recover` in
 * the transition table). Each is one atomic compare-and-set, so a post is claimed by at most
 * one caller whatever the number of API and worker processes. The claim token (claimed_by) is
 * unique per claim; every later write of the publish is conditional on it, so a claim taken
 * over by recovery can no longer write anything.
 */

export interface Claim {
  row: PostRow;
  token: string;
  /**
   * The post's channel as read with its batch (claimDue): the first send uses it instead of
   * reading it again, and clears it (`takeChannel`); later sends read it fresh.
   */
  channel?: ChannelRow;
}

/** The channel read with the claim, once. */
export function takeChannel(claim: Claim): ChannelRow | undefined {
  const { channel } = claim;
  claim.channel = undefined;
  return channel;
}

export const newClaimToken = (deps: AppDeps) => `${deps.instanceId}:${randomBase62(10)}`;

/** The rows this claim still holds: its post, its token, and (through the table) `publishing`. */
export const heldBy = (claim: Claim) => and(eq(posts.id, claim.row.id), eq(posts.claimedBy, claim.token));

/** Every post one claim statement took (a batch) that still carries its token. */
export const heldUnder = (token: string) => eq(posts.claimedBy, token);

/** What a claim writes; in a statement built once, the token and the time are placeholders. */
const claimedValues = (token: string | SQL, now: number | SQL) => ({
  claimedAt: now,
  claimedBy: token,
  publishAttempts: sql`${posts.publishAttempts} + 1`,
  retryAt: null,
  updatedAt: now,
});

/**
 * Tells every process's publish sweep (through the wake relay, wake-relay.ts) when claims made
 * at `claimedAt` would lapse: should this process die holding them, a sweep is already set to
 * take them over then, even one that would otherwise sleep until SWEEP_INTERVAL_MS (a worker
 * whose last run ended before an API process's publish-now claimed). A live claim renewed by
 * its heartbeat is still reported by nextWorkAfter at that run, with its new lapse time.
 */
function wakeAtLapse(deps: AppDeps, claimedAt: number) {
  deps.wake(SweepName.publish, claimedAt + deps.config.PUBLISH_LEASE_MS + 1);
}

/** Publish-now: draft or scheduled -> publishing for one post of the account, or null if not claimable. */
export async function claimPost(
  deps: AppDeps,
  accountId: string,
  postId: string,
  db: DbOrTx = deps.db,
): Promise<Claim | null> {
  const token = newClaimToken(deps);
  const now = deps.clock.now();
  const [row] = await transitionPost(
    db,
    'publish_now',
    and(eq(posts.id, postId), eq(posts.accountId, accountId)),
    claimedValues(token, now),
  );
  if (row) wakeAtLapse(deps, now);
  return row ? { row, token } : null;
}

/**
 * The due sweep: claims up to `limit` due posts (their time reached, not waiting out a retry
 * backoff), oldest due first. SKIP LOCKED (the jobs kit's claimBatch) lets several workers
 * claim disjoint batches at once instead of queueing on the same rows. The claim and the read
 * of the claimed posts' channels are built once per process (reusable-statement.ts): a burst
 * claims a batch every PUBLISH_CONCURRENCY posts.
 */
export async function claimDue(deps: AppDeps, limit: number): Promise<Claim[]> {
  const token = newClaimToken(deps);
  const now = deps.clock.now();
  const rows = await claimDueStatement(deps.db, { now, token, limit });
  if (rows.length > 0) wakeAtLapse(deps, now);
  // Their channels in one statement, rather than one read per post when each is sent. The
  // posts are claimed already: if this read fails, each send reads its channel itself.
  const channelIds = [...new Set(rows.flatMap((row) => (row.channelId ? [row.channelId] : [])))];
  const read = channelIds.length
    ? await channelsById(deps.db, { ids: JSON.stringify(channelIds) }).catch((err) => {
        deps.log.warn({ err }, 'could not read the channels of claimed posts');
        return [];
      })
    : [];
  const byId = new Map(read.map((channel) => [channel.id, channel]));
  return rows.map((row) => ({ row, token, channel: byId.get(row.channelId ?? '') }));
}

const nowParam = sql.placeholder('now');

const claimDueStatement = claimBatchStatement<typeof posts, { now: number; token: string; limit: number }>(
  'postkit_claim_due',
  {
    table: posts,
    where: and(
      transitionAllowed('fall_due'),
      lte(posts.scheduledFor, nowParam),
      or(isNull(posts.retryAt), lte(posts.retryAt, nowParam)),
    ),
    orderBy: asc(posts.scheduledFor),
    limit: sql.placeholder('limit'),
    set: {
      ...claimedValues(sql`${sql.placeholder('token')}`, sql`${nowParam}`),
      status: targetOf('fall_due'),
    },
  },
);

const channelsById = reusableStatement<{ ids: string }, ChannelRow[]>('postkit_claimed_channels', (handle) =>
  handle
    .select()
    .from(channels)
    .where(inTextsOf(channels.id, sql.placeholder('ids'))),
);

/**
 * Recovery: takes over posts whose claim was not renewed within the lease (the claiming
 * process died), oldest lapse first. The new token fences the old holder out, should it still
 * be alive. The sweep calls it until a batch comes back short, so no lapsed claim waits a run.
 */
export async function reclaimStale(deps: AppDeps, limit: number): Promise<Claim[]> {
  const token = newClaimToken(deps);
  const now = deps.clock.now();
  const rows = await claimBatch(deps.db, {
    table: posts,
    where: and(
      transitionAllowed('recover'),
      // A lapsed claim, or a look-up put off until retryAt (markLookupPending: no claim held).
      or(lt(posts.claimedAt, now - deps.config.PUBLISH_LEASE_MS), lte(posts.retryAt, now)),
    ),
    orderBy: asc(posts.claimedAt),
    limit,
    set: {
      status: targetOf('recover'),
      claimedAt: now,
      claimedBy: token,
      retryAt: null,
      publishAttempts: sql`${posts.publishAttempts} + 1`,
    },
  });
  if (rows.length > 0) wakeAtLapse(deps, now);
  return rows.map((row) => ({ row, token }));
}

/**
 * Keeps the claims `held` matches alive until `stop`: one UPDATE per beat, whether it is a
 * sweep's whole batch waiting for slots in the pool (`heldUnder(token)`, one claim statement's
 * token) or one post while it publishes (`heldBy(claim)`). Whoever holds a claim
 * keeps it: the sweep, or publish-now. A post settled or taken over no longer matches (its
 * status or token changed). `held` is built when a beat is due: most publishes end before
 * the first (a third of the lease), and a burst starts one heartbeat per post.
 */
export function keepClaimsAlive(deps: AppDeps, held: () => SQL | undefined): { stop(): void } {
  const every = Math.max(50, Math.floor(deps.config.PUBLISH_LEASE_MS / 3));
  const timer = setInterval(() => {
    transitionPost(deps.db, 'renew_claim', held(), { claimedAt: deps.clock.now() }).catch((err) =>
      deps.log.warn({ err }, 'could not renew publish claims'),
    );
  }, every);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * Records "create sent" just before the create request leaves; from then on no process
 * re-sends it. False when the claim was lost (canceled, or taken over by recovery): the
 * caller must not send. `resend` allows a second send within the same claim only after the
 * platform explicitly refused the first (e.g. an expired token, refreshed since).
 *
 * The first send of each create is written in groups (the jobs kit's group commit): the
 * creates about to leave at the same moment share one UPDATE, each row still conditional on
 * its own claim, and each create waits until its own row is committed.
 */
export async function markCreateSent(deps: AppDeps, claim: Claim, resend: boolean): Promise<boolean> {
  if (!resend) return deps.memory.createSentWrites(claim);
  const [row] = await transitionPost(deps.db, 'send_create', heldBy(claim), {
    createSentAt: deps.clock.now(),
  });
  return row !== undefined;
}

declare module '../../../context.ts' {
  interface ProcessMemory {
    /** First "create sent" marks, written in groups (createSentWriter). */
    createSentWrites: (claim: Claim) => Promise<boolean>;
  }
}

/** The group commit of first "create sent" marks, made once per process by createDeps. */
export function createSentWriter(deps: Pick<AppDeps, 'db' | 'clock'>): (claim: Claim) => Promise<boolean> {
  return groupCommit(async (claims: Claim[]) => {
    // Each post with the token of its own claim (a pair, not two lists: a post taken over
    // by another claim of this same process must not match).
    const pairs = claims.map((c) => ({ post_id: c.row.id, claim_token: c.token }));
    const rows = await markSent(deps.db, { now: deps.clock.now(), held: jsonRowsText(HELD, pairs) });
    const marked = new Set(rows.map((row) => row.id));
    return claims.map((c) => marked.has(c.row.id));
  });
}

const HELD = { post_id: 'text', claim_token: 'text' };

/** The grouped "create sent" mark, built once (a burst makes one per group of creates). */
const markSent = reusableStatement<{ now: number; held: string }, { id: string }[]>(
  'postkit_mark_create_sent',
  (db) =>
    db
      .update(posts)
      .set({ createSentAt: sql`${sql.placeholder('now')}`, status: targetOf('send_create') })
      .where(
        and(
          transitionAllowedByKey('send_create'),
          sql`(${posts.id}, ${posts.claimedBy}) in (select * from ${jsonRecordset('held', HELD, sql.placeholder('held'))})`,
          isNull(posts.createSentAt),
        ),
      )
      .returning({ id: posts.id }),
);

/**
 * For the runner's timer: the earliest time after `since` (the start of the run that just
 * ended) at which the sweep has work -- a scheduled post falling due, a retry's backoff ending,
 * or a claim lease lapsing (its holder may have died). The answer may be in the past: work
 * that became due while the run was busy, after it had claimed what was due, so the runner
 * comes back for it at once rather than at the next interval. Work due by `since` was the
 * run's to claim (what is left is held by another worker), so it is not reported: reporting
 * it would make the runner spin. Each part reads an index range of (status, scheduled_for):
 * retrying posts are scheduled posts whose time has passed, and publishing posts are the few
 * in flight.
 */
export async function nextWorkAfter(deps: AppDeps, since: number): Promise<number | null> {
  const lease = deps.config.PUBLISH_LEASE_MS;
  const scheduled = deps.db
    .select({ at: sql<number>`min(${posts.scheduledFor})` })
    .from(posts)
    .where(and(transitionAllowed('fall_due'), gt(posts.scheduledFor, since)));
  const retrying = deps.db
    .select({ at: sql<number>`min(${posts.retryAt})` })
    .from(posts)
    .where(and(transitionAllowed('fall_due'), lte(posts.scheduledFor, since), gt(posts.retryAt, since)));
  // A claim is taken over once claimedAt < now - lease (reclaimStale): first at claimedAt +
  // lease + 1. Those a run starting at `since` could not take yet are claimedAt >= since - lease.
  const lapsing = deps.db
    .select({ at: sql<number>`min(${posts.claimedAt}) + ${lease + 1}` })
    .from(posts)
    .where(and(transitionAllowed('recover'), gte(posts.claimedAt, since - lease)));
  // A look-up put off (markLookupPending) is taken over at its retryAt.
  const lookups = deps.db
    .select({ at: sql<number>`min(${posts.retryAt})` })
    .from(posts)
    .where(and(transitionAllowed('recover'), gt(posts.retryAt, since)));
  const [row] = await deps.db
    .select({
      at: sql<number | null>`least((${scheduled}), (${retrying}), (${lapsing}), (${lookups}))`.mapWith(
        Number,
      ),
    })
    .from(sql`(select 1) as one`);
  return row?.at ?? null;
}

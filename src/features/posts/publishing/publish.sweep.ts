import type { AppDeps } from '../../../context.ts';
import { boundedPool } from '../../../jobs/pool.ts';
import type { Sweep } from '../../../jobs/runner.ts';
import { SweepName } from '../../../wake/sweep-names.ts';
import { channelTools } from '../../channels/channel-config.ts';
import { expectLookups } from './channel-listing.ts';
import {
  type Claim,
  claimDue,
  heldBy,
  heldUnder,
  keepClaimsAlive,
  nextWorkAfter,
  reclaimStale,
} from './claims.ts';
import type { Outcome } from './publish-outcome.ts';
import { runPublish } from './publish-run.ts';
import { recoverClaim } from './sent-create-recovery.ts';

/** Due posts one run claims at most before the runner runs it again at once (batchSize). */
const MAX_PER_RUN = 1_000;
/** Lapsed claims one statement takes over; a run takes over every lapsed claim it sees. */
const RECLAIM_BATCH = 500;

/**
 * Publishes due posts through the same claim-then-publish path as publish-now, and recovers
 * posts whose publisher died (their lease lapsed). Up to PUBLISH_CONCURRENCY posts are in
 * flight at once, claimed in batches, and a freed slot is refilled at once, so a burst of due
 * posts flows through steadily. On shutdown no new post is claimed and the claimed ones finish.
 *
 * Every lapsed claim a run sees is taken over at once, however many there are (in statements
 * of RECLAIM_BATCH), and published first, before new due posts: a process that died holding a
 * burst's worth of claims is recovered within one run, not PUBLISH_CONCURRENCY per run.
 */
export const publishSweep: Sweep = {
  name: SweepName.publish,
  batchSize: MAX_PER_RUN,
  async run(deps, signal) {
    // Without the vault and the platform's credentials nothing can be published: leave the
    // posts scheduled rather than fail them for a deployment problem.
    if (!channelTools(deps)) return 0;
    return publishClaims(deps, signal, [recoverySource(deps), dueSource(deps)]);
  },
  // The earliest post not due when the run started: one that fell due (or whose claim lapsed)
  // during the run is reported although it is past, so the runner comes back for it at once.
  nextDueAt: (deps, since) => nextWorkAfter(deps, since),
  // A post scheduled by another process reaches this one as a wake (wake-relay.ts); without
  // that, it is found by looking this often.
  pollMs: (deps) => deps.config.PUBLISH_POLL_MS,
};

async function settle(deps: AppDeps, claim: Claim, publish: Publish): Promise<void> {
  const heartbeat = keepClaimsAlive(deps, () => heldBy(claim));
  try {
    const outcome = await publish(deps, claim);
    deps.metrics.publishSettled(outcome.kind, outcome.kind === 'lost' ? undefined : outcome.row);
    if (outcome.kind === 'failed') {
      // A final failure is the member's to act on; the log says why without opening the post.
      const { code, message } = outcome.failure;
      deps.log.warn({ postId: claim.row.id, outcome: outcome.kind, code, reason: message }, 'publish failed');
    } else if (outcome.kind === 'retrying' || outcome.kind === 'pending') {
      deps.log.info(
        { postId: claim.row.id, outcome: outcome.kind, retryAt: outcome.retryAt, reason: outcome.message },
        'publish will retry',
      );
    } else {
      deps.log.info({ postId: claim.row.id, outcome: outcome.kind }, 'publish finished');
    }
  } catch (err) {
    // The outcome write itself failed: the lease will lapse and recovery will settle the post.
    deps.log.error({ err, postId: claim.row.id }, 'could not record a publish outcome');
  } finally {
    heartbeat.stop();
  }
}

type Publish = (deps: AppDeps, claim: Claim) => Promise<Outcome>;

/** Where a run's claims come from, in order: lapsed claims first, then due posts. */
interface ClaimSource {
  /** Claims up to `limit` posts (one statement, one claim token). */
  claim(limit: number): Promise<Claim[]>;
  publish: Publish;
  /**
   * Lapsed claims are taken over the moment they are seen, however many wait for a slot;
   * due posts are claimed a pool's worth ahead, up to MAX_PER_RUN a run.
   */
  eager: boolean;
}

function recoverySource(deps: AppDeps): ClaimSource {
  return {
    eager: true,
    publish: recoverClaim,
    async claim(limit) {
      const recovered = await reclaimStale(deps, limit);
      deps.metrics.claimsRecovered(recovered.length);
      // Each channel's first look-up then lists back to its oldest create in doubt, for all of them.
      expectLookups(deps, recovered);
      if (recovered.length > 0) {
        // Another process stopped mid-publish: worth a line, as the operator will want to know
        // why, and which posts (all of them: at most a batch, and a crash is rare).
        deps.log.warn(
          { posts: recovered.length, postIds: recovered.map((c) => c.row.id) },
          'took over publishes whose claim lapsed',
        );
      }
      return recovered;
    },
  };
}

const dueSource = (deps: AppDeps): ClaimSource => ({
  eager: false,
  publish: runPublish,
  claim: (limit) => claimDue(deps, limit),
});

interface Waiting {
  claim: Claim;
  publish: Publish;
  batch: { left: number; heartbeat: { stop(): void } };
}

/**
 * Keeps the pool full from batches of claims, source by source, until nothing is claimable,
 * MAX_PER_RUN due posts are claimed, or shutdown begins. One statement claims a batch
 * (claims.ts), so a burst costs one claim per PUBLISH_CONCURRENCY posts; the next batch is
 * claimed while the current one is being published, so freed slots never wait for a claim.
 * Claimed posts waiting for a slot keep their claims alive with one heartbeat per batch
 * (renewing every post still held under the batch's token), and each post its own while it
 * publishes (settle), so a pool busy with long uploads, or a long queue of taken-over claims,
 * never lets them lapse into recovery again.
 */
async function publishClaims(deps: AppDeps, signal: AbortSignal, sources: ClaimSource[]): Promise<number> {
  const size = deps.config.PUBLISH_CONCURRENCY;
  const pool = boundedPool(size);
  const waiting: Waiting[] = [];
  let handled = 0;
  let dueClaimed = 0;
  let current = 0;
  let claiming: Promise<void> | null = null;
  let failure: unknown = null;
  const claimMore = async (source: ClaimSource) => {
    try {
      const limit = source.eager ? RECLAIM_BATCH : Math.min(size, MAX_PER_RUN - dueClaimed);
      const claims = await source.claim(limit);
      // Recovery is done when a batch comes back short; due posts when none is left.
      if (source.eager ? claims.length < limit : claims.length === 0) current++;
      if (claims.length > 0) {
        const { token } = claims[0]!;
        const batch = { left: claims.length, heartbeat: keepClaimsAlive(deps, () => heldUnder(token)) };
        const entries = claims.map((claim) => ({ claim, publish: source.publish, batch }));
        // Taken-over claims are overdue already: they go before the due posts waiting.
        if (source.eager) waiting.unshift(...entries);
        else waiting.push(...entries);
      }
      handled += claims.length;
      if (!source.eager) dueClaimed += claims.length;
    } catch (err) {
      // Claim no more in this run; what is claimed finishes, then the run reports the error.
      failure = err;
      current = sources.length;
    } finally {
      claiming = null;
    }
  };
  // A long run (a burst of due posts) looks for lapsed claims again every quarter lease, so a
  // process dying mid-run is taken over within the lease, not after this run ends.
  const recheckMs = Math.max(250, Math.floor(deps.config.PUBLISH_LEASE_MS / 4));
  let recoveredAt = deps.clock.now();
  for (;;) {
    const recheck = !failure && !claiming && current > 0 && sources[0]!.eager;
    if (recheck && deps.clock.now() - recoveredAt >= recheckMs) {
      recoveredAt = deps.clock.now();
      current = 0;
    }
    // Claimed posts always run, even after shutdown began: the claim is ours until settled.
    while (pool.free > 0 && waiting.length > 0) {
      const { claim, publish, batch } = waiting.shift()!;
      // From here the post's own heartbeat keeps its claim (settle).
      if (--batch.left === 0) batch.heartbeat.stop();
      pool.add(() => settle(deps, claim, publish));
    }
    // Looked at once the pool is filled, so the batch after the one just started is claimed
    // while that one publishes: at a burst's start the first freed slots then find posts
    // waiting instead of waiting for a claim. Only due posts are claimed (fall_due), and a
    // claimed post stays cancellable until its create is sent.
    const source = sources[current];
    if (
      source &&
      !claiming &&
      !signal.aborted &&
      (source.eager || (dueClaimed < MAX_PER_RUN && waiting.length < size))
    ) {
      claiming = claimMore(source);
    }
    if (pool.size === 0 && !claiming && waiting.length === 0) {
      if (!sources[current] || signal.aborted || failure) break;
      if (!sources[current]!.eager && dueClaimed >= MAX_PER_RUN) break;
      continue;
    }
    // A slot freeing up, or the next batch claimed (an empty pool only waits for the claim).
    await Promise.race([...(pool.size > 0 ? [pool.next()] : []), ...(claiming ? [claiming] : [])]);
  }
  await pool.drain();
  if (failure) throw failure;
  return handled;
}

import type { AppDeps } from '../../../context.ts';
import { boundedPool, forEachBounded } from '../../../jobs/pool.ts';
import type { Sweep } from '../../../jobs/runner.ts';
import { SweepName } from '../../../jobs/sweep-names.ts';
import { channelTools } from '../../channels/channel-config.ts';
import { type Claim, claimDue, nextWorkAfter, reclaimStale, startHeartbeat } from './claims.ts';
import { runPublish } from './publish-run.ts';
import { recoverClaim } from './sent-create-recovery.ts';

/** Posts one run claims at most before it looks for lapsed claims again (the runner re-runs at once). */
const MAX_PER_RUN = 1_000;
/**
 * Publishes due posts through the same claim-then-publish path as publish-now, and recovers
 * posts whose publisher died (their lease lapsed). Up to PUBLISH_CONCURRENCY posts are in
 * flight at once, claimed in batches, and a freed slot is refilled at once, so a burst of due
 * posts flows through steadily. On shutdown no new post is claimed and the claimed ones finish.
 */
export const publishSweep: Sweep = {
  name: SweepName.publish,
  batchSize: MAX_PER_RUN,
  async run(deps, signal) {
    // Without the vault and the platform's credentials nothing can be published: leave the
    // posts scheduled rather than fail them for a deployment problem.
    if (!channelTools(deps)) return 0;
    const recovered = await reclaimStale(deps, deps.config.PUBLISH_CONCURRENCY);
    deps.metrics.claimsRecovered(recovered.length);
    if (recovered.length > 0) {
      // Another process stopped mid-publish: worth a line, as the operator will want to know why.
      deps.log.warn(
        { posts: recovered.length, postIds: recovered.slice(0, 20).map((c) => c.row.id) },
        'took over publishes whose claim lapsed',
      );
    }
    await forEachBounded(recovered, deps.config.PUBLISH_CONCURRENCY, (claim) =>
      settle(deps, claim, recoverClaim),
    );
    return recovered.length + (await publishDue(deps, signal));
  },
  nextDueAt: (deps) => nextWorkAfter(deps, deps.clock.now()),
  // A post scheduled by another process reaches this one as a wake (wake-relay.ts); without
  // that, it is found by looking this often.
  pollMs: (deps) => deps.config.PUBLISH_POLL_MS,
};

async function settle(deps: AppDeps, claim: Claim, publish: typeof runPublish): Promise<void> {
  try {
    const outcome = await publish(deps, claim);
    deps.metrics.publishSettled(outcome.kind, outcome.kind === 'lost' ? undefined : outcome.row);
    if (outcome.kind === 'failed') {
      // A final failure is the member's to act on; the log says why without opening the post.
      const { code, message } = outcome.failure;
      deps.log.warn({ postId: claim.row.id, outcome: outcome.kind, code, reason: message }, 'publish failed');
    } else if (outcome.kind === 'retrying') {
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
  }
}

/**
 * Keeps the pool full from batches of claims, until nothing is due, MAX_PER_RUN is reached, or
 * shutdown begins. One statement claims a pool's worth (claims.ts), so a burst costs one claim
 * per PUBLISH_CONCURRENCY posts; the next batch is claimed while the current one is being
 * published (up to a pool's worth waiting), so freed slots never wait for a claim. A claimed
 * post waiting for a slot keeps its claim alive (heartbeat) like a running one, so a pool busy
 * with long uploads never lets it lapse into recovery.
 */
async function publishDue(deps: AppDeps, signal: AbortSignal): Promise<number> {
  const size = deps.config.PUBLISH_CONCURRENCY;
  const pool = boundedPool(size);
  const waiting: { claim: Claim; heartbeat: { stop(): void } }[] = [];
  let handled = 0;
  let drained = false;
  let claiming: Promise<void> | null = null;
  let failure: unknown = null;
  const claimMore = async () => {
    try {
      const claims = await claimDue(deps, Math.min(size, MAX_PER_RUN - handled));
      if (claims.length === 0) drained = true;
      for (const claim of claims) waiting.push({ claim, heartbeat: startHeartbeat(deps, claim) });
      handled += claims.length;
    } catch (err) {
      // Claim no more in this run; what is claimed finishes, then the run reports the error.
      failure = err;
      drained = true;
    } finally {
      claiming = null;
    }
  };
  for (;;) {
    if (!claiming && !drained && !signal.aborted && handled < MAX_PER_RUN && waiting.length < size) {
      claiming = claimMore();
    }
    // Claimed posts always run, even after shutdown began: the claim is ours until settled.
    while (pool.free > 0 && waiting.length > 0) {
      const { claim, heartbeat } = waiting.shift()!;
      heartbeat.stop();
      pool.add(() => settle(deps, claim, runPublish));
    }
    if (pool.size === 0 && !claiming && waiting.length === 0) break;
    // A slot freeing up, or the next batch claimed (an empty pool only waits for the claim).
    await Promise.race([...(pool.size > 0 ? [pool.next()] : []), ...(claiming ? [claiming] : [])]);
  }
  await pool.drain();
  if (failure) throw failure;
  return handled;
}

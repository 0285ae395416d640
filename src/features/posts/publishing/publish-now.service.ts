import type { Call } from '../../../context.ts';
import { Conflict, DependencyUnavailable, Invalid, PublishFailed } from '../../../domain/errors.ts';
import { passApprovalGate } from '../../approvals/approval-gate.ts';
import { recordAudit } from '../../audit/audit.service.ts';
import { requireChannelTools } from '../../channels/channel-config.ts';
import type { Post } from '../core/post.schemas.ts';
import { loadPostRow, type PostRow, toPost } from '../core/post-row.ts';
import { checkOne, draftOfRow } from '../core/post-rules.ts';
import { allows } from '../core/transitions.ts';
import { claimPost, heldBy, keepClaimsAlive } from './claims.ts';
import { runPublish } from './publish-run.ts';

export const notClaimable = (row: PostRow) =>
  new Conflict(
    'not_claimable',
    `The post is ${row.status}; only drafts and scheduled posts can be published, once.`,
    { extra: { post: toPost(row) } },
  );

/**
 * Publish now: claim (draft/scheduled -> publishing, atomically), then the shared publish
 * path. A replayed or concurrent call loses the claim and gets 409 not_claimable with the
 * post as it is. Checks that cannot change the post's state come first: a post without a
 * channel, or with a reference gone, is refused with 400 and left as it was.
 */
export async function publishNow({ ctx, input }: Call<{ id: string }>): Promise<Post> {
  const { deps } = ctx;
  const accountId = ctx.caller.accountId;
  const found = await loadPostRow(deps.db, accountId, input.id);
  if (!allows(found.status, 'publish_now')) throw notClaimable(found);
  const row = await passApprovalGate(ctx, found, 'body');
  if (!row.channelId) {
    throw new Invalid('This post has no channel; set channelId on the draft (PATCH) before publishing.', [
      { path: 'channelId', message: 'A channel is needed to publish' },
    ]);
  }
  requireChannelTools(deps, row.platform);
  await checkOne(ctx, draftOfRow(row));

  // The claim is the member's act of publishing: the audit trail records it in the claim's transaction.
  const claim = await deps.db.transaction(async (tx) => {
    const claimed = await claimPost(deps, accountId, row.id, tx);
    if (claimed)
      await recordAudit(tx, ctx.caller, { action: 'post.published', target: row.id, at: deps.clock.now() });
    return claimed;
  });
  if (!claim) throw notClaimable(await loadPostRow(deps.db, accountId, row.id));
  const heartbeat = keepClaimsAlive(deps, () => heldBy(claim));
  const outcome = await runPublish(deps, claim).finally(() => heartbeat.stop());
  switch (outcome.kind) {
    case 'published':
      return toPost(outcome.row);
    case 'failed':
      throw new PublishFailed(outcome.failure, toPost(outcome.row));
    case 'retrying':
    // Only recovery puts a look-up off; should a publish-now ever meet one, it answers alike.
    case 'pending':
      throw new DependencyUnavailable('platform_unavailable', outcome.message, {
        extra: { post: toPost(outcome.row) },
        retryAfterSeconds: Math.max(1, Math.ceil((outcome.retryAt - deps.clock.now()) / 1000)),
      });
    case 'lost':
      // Canceled (or deleted) while this call was uploading: report the post as it now is.
      throw notClaimable(await loadPostRow(deps.db, accountId, row.id));
  }
}

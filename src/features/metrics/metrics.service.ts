import { and, asc, desc, eq, gte, lt } from 'drizzle-orm';
import type { AppDeps, Call } from '../../context.ts';
import { metricSnapshots, posts } from '../../db/schema/index.ts';
import { Conflict, UpstreamFailed } from '../../domain/errors.ts';
import { newId } from '../../lib/ids.ts';
import { PlatformError, type PostMetrics } from '../../platforms/platform.ts';
import { withChannelAccess } from '../channels/channel-access.ts';
import { loadPostRow, type PostRow } from '../posts/core/post-row.ts';
import type { MetricSnapshot } from './metrics.schemas.ts';
import type { MetricsHistoryResult } from './trends.schemas.ts';

type SnapshotRow = typeof metricSnapshots.$inferSelect;

export const toSnapshot = (row: SnapshotRow): MetricSnapshot => ({
  id: row.id,
  postId: row.postId,
  impressions: row.impressions,
  likes: row.likes,
  comments: row.comments,
  shares: row.shares,
  clicks: row.clicks,
  fetchedAt: row.fetchedAt,
});

const INT32_MAX = 2_147_483_647;

/** A counter as stored: null stays null (not reported); anything else a non-negative integer. */
function counter(value: number | null): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  return Math.min(INT32_MAX, Math.max(0, Math.round(value)));
}

/** What the platform's refusal means for a metrics read, in the codes channel and publish use. */
function metricsError(err: unknown): unknown {
  if (!(err instanceof PlatformError)) return err;
  switch (err.kind) {
    case 'revoked_token':
      return new Conflict('channel_revoked', "The post's channel was revoked at the platform; reconnect it.");
    case 'expired_token':
      return new Conflict(
        'channel_expired',
        "The channel's access has expired; the member must reconnect it.",
      );
    case 'missing_scope':
      return new Conflict(
        'channel_error',
        'The platform refused to share analytics (permission not granted); reconnect the channel.',
      );
    default:
      return new UpstreamFailed('platform_error', `Reading the post's metrics failed: ${err.message}`, {
        cause: err,
      });
  }
}

/**
 * Reads one published post's counters from its platform and appends a snapshot. Shared by
 * the refresh route and the metrics sweep. Throws 409 `not_published` for a post that is not
 * on the platform, the channel's 409s (revoked, expired, error), 502 `platform_error`, and
 * 503 `not_configured` when the deployment cannot reach the platform.
 */
export async function pollPostMetrics(deps: AppDeps, row: PostRow): Promise<MetricSnapshot> {
  if (row.status !== 'published' || !row.platformPostId)
    throw new Conflict(
      'not_published',
      `Metrics exist only for published posts; this post is ${row.status}.`,
    );
  if (!row.channelId)
    throw new Conflict('channel_revoked', "The post's channel no longer exists; its metrics cannot be read.");
  const platformPostId = row.platformPostId;
  let counts: PostMetrics;
  try {
    counts = await withChannelAccess(
      deps,
      { accountId: row.accountId, channelId: row.channelId },
      ({ platform, accessToken }) => platform.metrics({ accessToken, platformPostId }),
    );
  } catch (err) {
    throw metricsError(err);
  }
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(metricSnapshots)
      .values({
        id: newId('metric'),
        postId: row.id,
        accountId: row.accountId,
        impressions: counter(counts.impressions),
        likes: counter(counts.likes),
        comments: counter(counts.comments),
        shares: counter(counts.shares),
        clicks: counter(counts.clicks),
        fetchedAt: now,
      })
      .returning();
    // Polling is bookkeeping, not an edit: updatedAt stays as it was.
    await tx.update(posts).set({ metricsPolledAt: now }).where(eq(posts.id, row.id));
    return toSnapshot(inserted!);
  });
}

export async function refreshPostMetrics({ ctx, input }: Call<{ id: string }>): Promise<MetricSnapshot> {
  const row = await loadPostRow(ctx.deps.db, ctx.caller.accountId, input.id);
  return pollPostMetrics(ctx.deps, row);
}

export async function getPostMetrics({ ctx, input }: Call<{ id: string; limit: number }>): Promise<{
  latest: MetricSnapshot | null;
  history: MetricSnapshot[];
}> {
  await loadPostRow(ctx.deps.db, ctx.caller.accountId, input.id);
  const rows = await ctx.deps.db
    .select()
    .from(metricSnapshots)
    .where(and(eq(metricSnapshots.postId, input.id), eq(metricSnapshots.accountId, ctx.caller.accountId)))
    .orderBy(desc(metricSnapshots.fetchedAt), desc(metricSnapshots.id))
    .limit(input.limit);
  const history = rows.map(toSnapshot);
  return { latest: history[0] ?? null, history };
}

/**
 * GET /v1/posts/{id}/metrics/history: the post's snapshots oldest first, one per refresh (as
 * many as the retention window kept), each with its engagements and its age since publishing.
 */
export async function getMetricsHistory({
  ctx,
  input,
}: Call<{ id: string; from?: number; to?: number; limit: number }>): Promise<MetricsHistoryResult> {
  const post = await loadPostRow(ctx.deps.db, ctx.caller.accountId, input.id);
  const filters = [eq(metricSnapshots.postId, post.id), eq(metricSnapshots.accountId, ctx.caller.accountId)];
  if (input.from !== undefined) filters.push(gte(metricSnapshots.fetchedAt, input.from));
  if (input.to !== undefined) filters.push(lt(metricSnapshots.fetchedAt, input.to));
  const rows = await ctx.deps.db
    .select()
    .from(metricSnapshots)
    .where(and(...filters))
    .orderBy(asc(metricSnapshots.fetchedAt), asc(metricSnapshots.id))
    .limit(input.limit + 1);
  const snapshots = rows.slice(0, input.limit).map((row) => ({
    ...toSnapshot(row),
    engagements: (row.likes ?? 0) + (row.comments ?? 0) + (row.shares ?? 0) + (row.clicks ?? 0),
    sincePublishMs: post.publishedAt === null ? null : row.fetchedAt - post.publishedAt,
  }));
  return { postId: post.id, publishedAt: post.publishedAt, snapshots, hasMore: rows.length > input.limit };
}

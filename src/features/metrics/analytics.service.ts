import { and, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { Call, Ctx } from '../../context.ts';
import { metricSnapshots, postScores, posts } from '../../db/schema/index.ts';
import { Invalid } from '../../domain/errors.ts';
import type { Analytics, CalibrationRow, MetricCoverage, MetricTotals } from './metrics.schemas.ts';

const DIMENSIONS = ['impressions', 'likes', 'comments', 'shares', 'clicks'] as const;

/** Each of the account's posts' most recent snapshot (the one analytics and calibration count). */
export function latestSnapshots(ctx: Ctx) {
  return ctx.deps.db
    .selectDistinctOn([metricSnapshots.postId], {
      postId: metricSnapshots.postId,
      impressions: metricSnapshots.impressions,
      likes: metricSnapshots.likes,
      comments: metricSnapshots.comments,
      shares: metricSnapshots.shares,
      clicks: metricSnapshots.clicks,
    })
    .from(metricSnapshots)
    .where(eq(metricSnapshots.accountId, ctx.caller.accountId))
    .orderBy(metricSnapshots.postId, desc(metricSnapshots.fetchedAt), desc(metricSnapshots.id))
    .as('latest');
}

const int = (expression: SQL) => sql<number>`${expression}`.mapWith(Number);

const emptyTotals = (): MetricTotals => ({
  posts: 0,
  impressions: 0,
  likes: 0,
  comments: 0,
  shares: 0,
  clicks: 0,
  engagements: 0,
});
const emptyCoverage = (): MetricCoverage => ({ impressions: 0, likes: 0, comments: 0, shares: 0, clicks: 0 });

/**
 * Account totals and a per-platform breakdown over the posts published in [from, to) that
 * have at least one snapshot, each post counted once by its latest snapshot (counters are
 * lifetime totals at the platform, so adding snapshots up would count engagement twice). A
 * dimension the platform did not report adds nothing; `reported` says how many posts had it.
 */
export async function getAnalytics({ ctx, input }: Call<{ from?: number; to?: number }>): Promise<Analytics> {
  if (input.from !== undefined && input.to !== undefined && input.from > input.to)
    throw new Invalid('`from` must not be after `to`.', [
      { path: 'querystring.from', message: 'After `to`' },
    ]);
  const latest = latestSnapshots(ctx);
  const filters: SQL[] = [eq(posts.accountId, ctx.caller.accountId)];
  if (input.from !== undefined) filters.push(gte(posts.publishedAt, input.from));
  if (input.to !== undefined) filters.push(lt(posts.publishedAt, input.to));
  const rows = await ctx.deps.db
    .select({
      platform: posts.platform,
      posts: int(sql`count(*)`),
      impressions: int(sql`coalesce(sum(${latest.impressions}), 0)`),
      likes: int(sql`coalesce(sum(${latest.likes}), 0)`),
      comments: int(sql`coalesce(sum(${latest.comments}), 0)`),
      shares: int(sql`coalesce(sum(${latest.shares}), 0)`),
      clicks: int(sql`coalesce(sum(${latest.clicks}), 0)`),
      impressionsReported: int(sql`count(${latest.impressions})`),
      likesReported: int(sql`count(${latest.likes})`),
      commentsReported: int(sql`count(${latest.comments})`),
      sharesReported: int(sql`count(${latest.shares})`),
      clicksReported: int(sql`count(${latest.clicks})`),
    })
    .from(latest)
    .innerJoin(posts, eq(posts.id, latest.postId))
    .where(and(...filters))
    .groupBy(posts.platform)
    .orderBy(posts.platform);

  const totals = emptyTotals();
  const reported = emptyCoverage();
  const platforms = rows.map((row) => {
    const platformTotals: MetricTotals = {
      posts: row.posts,
      impressions: row.impressions,
      likes: row.likes,
      comments: row.comments,
      shares: row.shares,
      clicks: row.clicks,
      engagements: row.likes + row.comments + row.shares + row.clicks,
    };
    const platformReported: MetricCoverage = {
      impressions: row.impressionsReported,
      likes: row.likesReported,
      comments: row.commentsReported,
      shares: row.sharesReported,
      clicks: row.clicksReported,
    };
    totals.posts += platformTotals.posts;
    totals.engagements += platformTotals.engagements;
    for (const d of DIMENSIONS) {
      totals[d] += platformTotals[d];
      reported[d] += platformReported[d];
    }
    return { platform: row.platform, totals: platformTotals, reported: platformReported };
  });
  return { from: input.from ?? null, to: input.to ?? null, totals, reported, platforms };
}

/**
 * The calibration dataset: every post with both a recorded score and a metric snapshot,
 * pairing its latest score with its latest snapshot. Counters keep their nulls;
 * `engagements` counts a null as 0. Most recently published first.
 */
export async function getCalibration({ ctx }: Call<void>): Promise<CalibrationRow[]> {
  const latest = latestSnapshots(ctx);
  const score = ctx.deps.db
    .selectDistinctOn([postScores.postId], {
      postId: postScores.postId,
      score: postScores.score,
      verdict: postScores.verdict,
    })
    .from(postScores)
    .where(eq(postScores.accountId, ctx.caller.accountId))
    .orderBy(postScores.postId, desc(postScores.createdAt), desc(postScores.id))
    .as('score');
  const rows = await ctx.deps.db
    .select({
      postId: posts.id,
      platform: posts.platform,
      score: score.score,
      verdict: score.verdict,
      publishedAt: posts.publishedAt,
      impressions: latest.impressions,
      likes: latest.likes,
      comments: latest.comments,
      shares: latest.shares,
      clicks: latest.clicks,
    })
    .from(posts)
    .innerJoin(latest, eq(latest.postId, posts.id))
    .innerJoin(score, eq(score.postId, posts.id))
    .where(eq(posts.accountId, ctx.caller.accountId))
    .orderBy(sql`${posts.publishedAt} desc nulls last`, desc(posts.id));
  return rows.map((row) => ({
    ...row,
    engagements: (row.likes ?? 0) + (row.comments ?? 0) + (row.shares ?? 0) + (row.clicks ?? 0),
  }));
}

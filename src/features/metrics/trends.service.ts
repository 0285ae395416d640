import { and, eq, gte, isNotNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Call, Ctx } from '../../context.ts';
import { metricSnapshots, posts } from '../../db/schema/index.ts';
import { Invalid } from '../../domain/errors.ts';
import { latestSnapshots } from './analytics.service.ts';
import { ageSql, DECAY_MILESTONES, engagementsSql, overPost } from './snapshot-series.ts';
import type { DecayMilestone, Trends, WeekOfPosting } from './trends.schemas.ts';

const WEEK_MS = 7 * 86_400_000;
/** 1970-01-05 was a Monday: weeks start Monday 00:00 UTC. */
const MONDAY_EPOCH = 4 * 86_400_000;
/** The weekly series covers at most this many weeks (the most recent ones). */
export const MAX_WEEKS = 260;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

function publishedIn(ctx: Ctx, input: { from?: number; to?: number }): SQL[] {
  const filters: SQL[] = [
    eq(posts.accountId, ctx.caller.accountId),
    eq(posts.status, 'published'),
    isNotNull(posts.publishedAt),
  ];
  if (input.from !== undefined) filters.push(gte(posts.publishedAt, input.from));
  if (input.to !== undefined) filters.push(lt(posts.publishedAt, input.to));
  return filters;
}

/**
 * Content decay: for each milestone (1 h, 24 h, 7 d after publishing), the median over posts of
 * the share of the engagement measured so far (the latest snapshot) that the post had reached
 * by then. A post counts for a milestone once a snapshot at or after it exists and its latest
 * engagement is above 0. Its value at the milestone is read linearly between the last snapshot
 * before and the first at or after it (publishing itself counting as 0), capped at 1.
 */
async function decayOf(ctx: Ctx, input: { from?: number; to?: number }): Promise<DecayMilestone[]> {
  const series = ctx.deps.db
    .select({
      postId: sql<string>`${metricSnapshots.postId}`.as('post_id'),
      age: sql`${ageSql}`.as('age'),
      engagements: sql`${engagementsSql}`.as('engagements'),
      prevAge: sql`${overPost(sql`lag(${ageSql})`)}`.as('prev_age'),
      prevEngagements: sql`${overPost(sql`lag(${engagementsSql})`)}`.as('prev_engagements'),
      newest:
        sql`row_number() over (partition by ${metricSnapshots.postId} order by ${metricSnapshots.fetchedAt} desc, ${metricSnapshots.id} desc)`.as(
          'newest',
        ),
    })
    .from(metricSnapshots)
    .innerJoin(posts, eq(posts.id, metricSnapshots.postId))
    .where(and(...publishedIn(ctx, input), gte(metricSnapshots.fetchedAt, posts.publishedAt)))
    .as('series');
  const firstAtOrAfter = DECAY_MILESTONES.map(({ afterMs }) =>
    and(gte(series.age, afterMs), or(sql`${series.prevAge} is null`, lt(series.prevAge, afterMs))),
  );
  const rows = await ctx.deps.db
    .select()
    .from(series)
    .where(or(eq(series.newest, 1), ...firstAtOrAfter));

  const byPost = new Map<string, typeof rows>();
  for (const row of rows) byPost.set(row.postId, [...(byPost.get(row.postId) ?? []), row]);
  const shares: number[][] = DECAY_MILESTONES.map(() => []);
  for (const postRows of byPost.values()) {
    const latest = postRows.find((r) => num(r.newest) === 1)!;
    const final = num(latest.engagements)!;
    if (!(final > 0)) continue;
    DECAY_MILESTONES.forEach(({ afterMs }, i) => {
      const at = postRows.find((r) => {
        const age = num(r.age)!;
        const prev = num(r.prevAge);
        return age >= afterMs && (prev === null || prev < afterMs);
      });
      if (!at) return;
      const age = num(at.age)!;
      const value = num(at.engagements)!;
      const prevAge = num(at.prevAge) ?? 0;
      const prevValue = num(at.prevEngagements) ?? 0;
      const reached =
        age === prevAge ? value : prevValue + ((value - prevValue) * (afterMs - prevAge)) / (age - prevAge);
      shares[i]!.push(Math.min(1, Math.max(0, reached / final)));
    });
  }
  return DECAY_MILESTONES.map(({ label, afterMs }, i) => ({
    after: label,
    afterMs,
    posts: shares[i]!.length,
    share: round3(median(shares[i]!)),
  }));
}

/**
 * Posting frequency against engagement, per week (Monday 00:00 UTC): posts published that week,
 * how many of them have metrics, their engagements (latest snapshot each) and the engagements
 * per measured post. Weeks without a post between the first and the last are included as 0, so
 * quiet weeks show; at most the last MAX_WEEKS weeks.
 */
async function weeklyOf(ctx: Ctx, input: { from?: number; to?: number }): Promise<WeekOfPosting[]> {
  const latest = latestSnapshots(ctx);
  const rows = await ctx.deps.db
    .select({
      publishedAt: posts.publishedAt,
      measured: sql`${latest.postId} is not null`.mapWith(Boolean),
      engagements:
        sql`coalesce(${latest.likes}, 0) + coalesce(${latest.comments}, 0) + coalesce(${latest.shares}, 0) + coalesce(${latest.clicks}, 0)`.mapWith(
          Number,
        ),
    })
    .from(posts)
    .leftJoin(latest, eq(latest.postId, posts.id))
    .where(and(...publishedIn(ctx, input)));
  if (!rows.length) return [];
  const weekOf = (ms: number) => Math.floor((ms - MONDAY_EPOCH) / WEEK_MS) * WEEK_MS + MONDAY_EPOCH;
  const weeks = new Map<number, { posts: number; measured: number; engagements: number }>();
  for (const row of rows) {
    const start = weekOf(row.publishedAt!);
    const week = weeks.get(start) ?? { posts: 0, measured: 0, engagements: 0 };
    week.posts++;
    if (row.measured) {
      week.measured++;
      week.engagements += row.engagements;
    }
    weeks.set(start, week);
  }
  const last = Math.max(...weeks.keys());
  const first = Math.max(Math.min(...weeks.keys()), last - (MAX_WEEKS - 1) * WEEK_MS);
  const out: WeekOfPosting[] = [];
  for (let start = first; start <= last; start += WEEK_MS) {
    const week = weeks.get(start) ?? { posts: 0, measured: 0, engagements: 0 };
    out.push({
      weekStart: start,
      ...week,
      engagementsPerPost: week.measured ? Math.round((week.engagements / week.measured) * 10) / 10 : null,
    });
  }
  return out;
}

/** GET /v1/analytics/trends: content decay and weekly posting frequency against engagement. */
export async function getTrends({ ctx, input }: Call<{ from?: number; to?: number }>): Promise<Trends> {
  if (input.from !== undefined && input.to !== undefined && input.from > input.to)
    throw new Invalid('`from` must not be after `to`.', [
      { path: 'querystring.from', message: 'After `to`' },
    ]);
  const [decay, weekly] = await Promise.all([decayOf(ctx, input), weeklyOf(ctx, input)]);
  return { from: input.from ?? null, to: input.to ?? null, decay, weekly };
}

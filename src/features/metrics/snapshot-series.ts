import { type SQL, sql } from 'drizzle-orm';
import { metricSnapshots, posts } from '../../db/schema/index.ts';

/**
 * What content decay and snapshot retention share: the moments after publishing that decay
 * reports (the share of a post's engagement reached by then), and each snapshot's place in its
 * post's series. Retention keeps the snapshots that bracket these moments, so pruning old
 * snapshots never changes a post's decay figures.
 */
export const DECAY_MILESTONES = [
  { label: '1h', afterMs: 3_600_000 },
  { label: '24h', afterMs: 86_400_000 },
  { label: '7d', afterMs: 604_800_000 },
] as const;

/** likes + comments + shares + clicks, an unreported dimension counting 0 (as analytics does). */
export const engagementsSql = sql`(coalesce(${metricSnapshots.likes}, 0) + coalesce(${metricSnapshots.comments}, 0) + coalesce(${metricSnapshots.shares}, 0) + coalesce(${metricSnapshots.clicks}, 0))::float8`;

/** Milliseconds from the post's publishing to the snapshot (the query joins posts). */
export const ageSql = sql`(${metricSnapshots.fetchedAt} - ${posts.publishedAt})::float8`;

/** `expression` over the snapshots of the same post, oldest first. */
export const overPost = (expression: SQL) =>
  sql`${expression} over (partition by ${metricSnapshots.postId} order by ${metricSnapshots.fetchedAt}, ${metricSnapshots.id})`;

/**
 * Whether a snapshot (its age, and the ages of the snapshots before and after it) is the last
 * one before a milestone or the first at or after it: the two a milestone's value is read from.
 */
export function bracketsMilestone(age: SQL, prevAge: SQL, nextAge: SQL): SQL {
  const each = DECAY_MILESTONES.map(
    ({ afterMs }) =>
      sql`(${age} >= ${afterMs} and (${prevAge} is null or ${prevAge} < ${afterMs})) or (${age} < ${afterMs} and ${nextAge} >= ${afterMs})`,
  );
  // Parenthesised whole: drizzle's not() does not add parentheses of its own.
  return sql`(${sql.join(each, sql` or `)})`;
}

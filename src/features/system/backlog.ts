import { and, count, countDistinct, eq, inArray, isNull, lt, lte, min, or, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context.ts';
import { channels, posts, webhookDeliveries } from '../../db/schema/index.ts';
import type { Backlog } from '../../observability/types.ts';
import { transitionAllowed } from '../posts/core/transitions.ts';

/**
 * Five small queries, each on an indexed status column: cheap enough to run on every scrape
 * (typically every 15-60 s). A channel stops working when its access token lapses with no
 * refresh token, or when its refresh token lapses; a null time never lapses.
 */
export async function readBacklog(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>): Promise<Backlog> {
  const now = deps.clock.now();
  const horizon = now + deps.config.METRICS_EXPIRY_WARNING_HOURS * 3_600_000;
  const lapsesAt = sql`case when ${channels.refreshTokenSealed} is null then ${channels.expiresAt} else ${channels.refreshExpiresAt} end`;
  const lapsedBefore = now - deps.config.PUBLISH_LEASE_MS;
  const [[due], [lapsed], [deliveries], [failing], expiring] = await Promise.all([
    deps.db
      .select({ n: count(), oldest: min(posts.scheduledFor) })
      .from(posts)
      .where(
        and(
          transitionAllowed('fall_due'),
          lte(posts.scheduledFor, now),
          or(isNull(posts.retryAt), lte(posts.retryAt, now)),
        ),
      ),
    deps.db
      .select({ n: count() })
      .from(posts)
      .where(and(transitionAllowed('recover'), lt(posts.claimedAt, lapsedBefore))),
    deps.db
      .select({ n: count() })
      .from(webhookDeliveries)
      .where(
        and(
          inArray(webhookDeliveries.status, ['pending', 'failed']),
          lte(webhookDeliveries.nextAttemptAt, now),
        ),
      ),
    deps.db
      .select({ n: countDistinct(webhookDeliveries.webhookId) })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.status, 'failed')),
    deps.db
      .select({ platform: channels.platform, n: count() })
      .from(channels)
      .where(and(eq(channels.status, 'connected'), sql`${lapsesAt} < ${horizon}`))
      .groupBy(channels.platform),
  ]);
  const oldest = due?.oldest ?? null;
  return {
    postsDue: due?.n ?? 0,
    oldestDueMs: oldest === null ? null : Math.max(0, now - Number(oldest)),
    claimsLapsed: lapsed?.n ?? 0,
    deliveriesDue: deliveries?.n ?? 0,
    endpointsFailing: failing?.n ?? 0,
    channelsExpiring: expiring.map((r) => ({ platform: r.platform, count: r.n })),
  };
}

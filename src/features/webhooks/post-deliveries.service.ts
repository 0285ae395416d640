import { and, desc, eq, sql } from 'drizzle-orm';
import type { Call } from '../../context.ts';
import { events, posts, webhookDeliveries, webhooks } from '../../db/schema/index.ts';
import { requireOwned } from '../tenancy.ts';
import type { PostDelivery } from './webhooks.schemas.ts';
import { toWebhookDelivery } from './webhooks.service.ts';

/** The newest deliveries one post's page shows; older ones stay listed under their endpoint. */
export const MAX_POST_DELIVERIES = 100;

/**
 * The webhook deliveries of the events about one post (published, failed, scored...), newest
 * first, each with the endpoint's URL. Every post event carries the post as `data.post`, so the
 * event's payload names it; another account's post is a 404 like every post path.
 */
export async function listPostDeliveries({ ctx, input }: Call<{ id: string }>): Promise<PostDelivery[]> {
  const post = await requireOwned(
    { accountId: ctx.caller.accountId, db: ctx.deps.db },
    posts,
    input.id,
    'Post',
  );
  const rows = await ctx.deps.db
    .select({ delivery: webhookDeliveries, url: webhooks.url })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(
      and(
        eq(webhookDeliveries.accountId, ctx.caller.accountId),
        eq(events.accountId, ctx.caller.accountId),
        sql`${events.payload} -> 'post' ->> 'id' = ${post.id}`,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(MAX_POST_DELIVERIES);
  return rows.map((r) => ({ ...toWebhookDelivery(r.delivery), url: r.url }));
}

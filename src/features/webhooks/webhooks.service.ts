import { and, count, eq } from 'drizzle-orm';
import type { Call } from '../../context.ts';
import { webhookDeliveries, webhooks } from '../../db/schema/index.ts';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../domain/enums.ts';
import { Conflict, NotConfigured } from '../../domain/errors.ts';
import { newId } from '../../lib/ids.ts';
import { vaultAad } from '../../vault/aad.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { PageInfo, PageRequest } from '../pagination.ts';
import { listOwned, ownedNotFound, pageOwned, requireOwned } from '../tenancy.ts';
import { generateSigningSecret } from './signing.ts';
import { validateWebhookUrl } from './webhook-url.ts';
import type {
  CreateWebhookRequest,
  CreateWebhookResult,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookStatus,
} from './webhooks.schemas.ts';

/** Each event fans out to every endpoint; a cap keeps one account from multiplying the work unboundedly. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 20;

type WebhookRow = typeof webhooks.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export const toWebhookEndpoint = (row: WebhookRow): WebhookEndpoint => ({
  id: row.id,
  accountId: row.accountId,
  url: row.url,
  events: row.events as WebhookEvent[],
  status: row.status as WebhookStatus,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export const toWebhookDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  webhookId: row.webhookId,
  event: row.event,
  status: row.status as WebhookDelivery['status'],
  attempts: row.attempts,
  lastStatusCode: row.lastStatusCode,
  lastError: row.lastError,
  nextAttemptAt: row.nextAttemptAt,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/**
 * Registers an endpoint. The signing secret is generated here, returned once and stored
 * sealed by the vault (bound to the endpoint id), since the worker needs it back to sign.
 * Without a vault key there is nowhere safe to keep it: 503, like the channel routes.
 */
export async function createWebhook({
  ctx,
  input,
}: Call<CreateWebhookRequest>): Promise<CreateWebhookResult> {
  const { vault, config } = ctx.deps;
  if (!vault)
    throw new NotConfigured(
      'Webhooks need the secret vault: set KIT_VAULT_KEY (openssl rand -base64 32) on this deployment.',
    );
  const url = validateWebhookUrl(input.url, config.WEBHOOK_ALLOW_PRIVATE, config.WEBHOOK_ALLOW_LOOPBACK);
  const events = input.events ? WEBHOOK_EVENTS.filter((e) => input.events!.includes(e)) : [...WEBHOOK_EVENTS];
  const id = newId('webhook');
  const secret = generateSigningSecret();
  const now = ctx.deps.clock.now();
  const row = await ctx.deps.db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ n: count() })
      .from(webhooks)
      .where(eq(webhooks.accountId, ctx.caller.accountId));
    if ((existing?.n ?? 0) >= MAX_WEBHOOKS_PER_ACCOUNT)
      throw new Conflict(
        'webhook_limit_reached',
        `An account may register at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhook endpoints; delete one first.`,
      );
    const [inserted] = await tx
      .insert(webhooks)
      .values({
        id,
        accountId: ctx.caller.accountId,
        url,
        events,
        status: 'active',
        secretSealed: vault.seal(secret, vaultAad.webhookSecret(id)),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await recordAudit(tx, ctx.caller, { action: 'webhook.created', target: id, at: now });
    return inserted!;
  });
  return { webhook: toWebhookEndpoint(row), secret };
}

export async function listWebhooks({ ctx }: Call<void>): Promise<WebhookEndpoint[]> {
  return (await listOwned(ctx, webhooks)).map(toWebhookEndpoint);
}

export async function getWebhook({ ctx, input }: Call<{ id: string }>): Promise<WebhookEndpoint> {
  return toWebhookEndpoint(await requireOwned(ctx, webhooks, input.id, 'Webhook'));
}

/** Removes the endpoint with its secret and delivery history; queued deliveries are never sent. */
export async function deleteWebhook({ ctx, input }: Call<{ id: string }>): Promise<{ deleted: boolean }> {
  const removed = await ctx.deps.db.transaction(async (tx) => {
    const gone = await tx
      .delete(webhooks)
      .where(and(eq(webhooks.id, input.id), eq(webhooks.accountId, ctx.caller.accountId)))
      .returning({ id: webhooks.id });
    if (gone.length > 0)
      await recordAudit(tx, ctx.caller, {
        action: 'webhook.deleted',
        target: input.id,
        at: ctx.deps.clock.now(),
      });
    return gone;
  });
  if (removed.length === 0) throw ownedNotFound('Webhook');
  return { deleted: true };
}

export async function listDeliveries({ ctx, input }: Call<{ id: string; page: PageRequest }>): Promise<{
  deliveries: WebhookDelivery[];
  pagination: PageInfo;
}> {
  await requireOwned(ctx, webhooks, input.id, 'Webhook');
  const { items, pagination } = await pageOwned(
    ctx,
    webhookDeliveries,
    input.page,
    eq(webhookDeliveries.webhookId, input.id),
  );
  return { deliveries: items.map(toWebhookDelivery), pagination };
}

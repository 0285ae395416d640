import type { Call } from '../../context.ts';
import { webhooks } from '../../db/schema/index.ts';
import { NotConfigured } from '../../domain/errors.ts';
import { newId } from '../../lib/ids.ts';
import { vaultAad } from '../../vault/aad.ts';
import { requireOwned } from '../tenancy.ts';
import { sendAttempt } from './delivery-send.ts';
import { deliveryHeaders } from './signing.ts';
import type { WebhookTestResult } from './webhooks.schemas.ts';

/** The event type of a test delivery: never emitted by anything else, so receivers can tell. */
export const TEST_EVENT = 'webhook.test';

/**
 * Sends one signed `webhook.test` delivery to the endpoint now, exactly as a real delivery is
 * sent (same envelope, headers and signature, through the same address-checked dispatcher), and
 * answers what happened: the receiver's status or the network error, with the headers and raw
 * body sent so the receiver's signature check can be compared by hand. It is not queued, retried
 * or listed with the endpoint's deliveries (it is no event of the account's), and it is sent
 * even to a disabled endpoint, since checking one is why someone would press the button.
 */
export async function sendTestEvent({ ctx, input }: Call<{ id: string }>): Promise<WebhookTestResult> {
  const row = await requireOwned(ctx, webhooks, input.id, 'Webhook');
  const { vault } = ctx.deps;
  if (!vault)
    throw new NotConfigured(
      'Webhooks need the secret vault: set KIT_VAULT_KEY (openssl rand -base64 32) on this deployment.',
    );
  const secret = vault.open(row.secretSealed, vaultAad.webhookSecret(row.id));
  const now = ctx.deps.clock.now();
  const deliveryId = newId('delivery');
  const body = JSON.stringify({
    id: newId('event'),
    type: TEST_EVENT,
    createdAt: now,
    data: { webhookId: row.id, message: 'A test delivery sent from Postkit: nothing happened to any post.' },
  });
  const headers = deliveryHeaders({ secret, eventType: TEST_EVENT, deliveryId, nowMs: now, rawBody: body });
  const started = performance.now();
  const outcome = await sendAttempt(ctx.deps, row.url, headers, body);
  return {
    delivered: outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300,
    statusCode: outcome.statusCode,
    error: outcome.error,
    durationMs: Math.round(performance.now() - started),
    deliveryId,
    sentAt: now,
    headers: {
      'x-kit-event': headers['x-kit-event']!,
      'x-kit-delivery': headers['x-kit-delivery']!,
      'x-kit-timestamp': headers['x-kit-timestamp']!,
      'x-kit-signature': headers['x-kit-signature']!,
    },
    body,
    signedPayload: `${headers['x-kit-timestamp']}.${body}`,
  };
}

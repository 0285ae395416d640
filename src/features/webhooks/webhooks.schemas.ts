import { z } from 'zod';
import { Pagination, PaginationQuery } from '../../api/schemas.ts';
import { DeliveryStatus, WebhookEvent } from '../../domain/enums.ts';
import { MAX_WEBHOOK_URL_LENGTH } from './webhook-url.ts';

export const WebhookStatus = z.enum(['active', 'disabled']).meta({ id: 'WebhookStatus' });
export type WebhookStatus = z.output<typeof WebhookStatus>;

export const WebhookEndpoint = z
  .object({
    id: z.string(),
    accountId: z.string(),
    url: z.string(),
    events: z.array(WebhookEvent),
    status: WebhookStatus.describe('`disabled` once the receiver answered 410 Gone'),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.output<typeof WebhookEndpoint>;

export const CreateWebhookRequest = z
  .object({
    url: z.string().trim().min(1).max(MAX_WEBHOOK_URL_LENGTH).describe('HTTPS callback URL on a public host'),
    events: z
      .array(WebhookEvent)
      .min(1)
      .max(WebhookEvent.options.length * 2)
      .optional()
      .describe('Events to subscribe to; omitted means all events'),
  })
  .strict()
  .meta({ id: 'CreateWebhookRequest' });
export type CreateWebhookRequest = z.output<typeof CreateWebhookRequest>;

export const CreateWebhookResult = z
  .object({
    webhook: WebhookEndpoint,
    secret: z.string().describe('Signing secret, returned only in this response'),
  })
  .meta({ id: 'CreateWebhookResult' });
export type CreateWebhookResult = z.output<typeof CreateWebhookResult>;

export const WebhookResult = z.object({ webhook: WebhookEndpoint }).meta({ id: 'WebhookResult' });

export const WebhookListResult = z
  .object({
    webhooks: z.array(WebhookEndpoint),
    events: z.array(WebhookEvent).describe('Every subscribable event'),
  })
  .meta({ id: 'WebhookListResult' });

export const WebhookDelivery = z
  .object({
    id: z.string().describe('Also sent to the receiver as `x-kit-delivery`'),
    webhookId: z.string(),
    event: z.string(),
    status: DeliveryStatus.meta({ id: 'WebhookDeliveryStatus' }),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.number().int().nullable().describe('When the next attempt is due; null when none is'),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.output<typeof WebhookDelivery>;

/** An extension: what POST /v1/webhooks/{id}/test sent and how the receiver answered. */
export const WebhookTestResult = z
  .object({
    delivered: z.boolean().describe('The receiver answered 2xx'),
    statusCode: z.number().int().nullable().describe("The receiver's HTTP status; null when none came"),
    error: z.string().nullable().describe('Why it was not delivered, in words; null when it was'),
    durationMs: z.number().int(),
    deliveryId: z.string().describe('Sent as `x-kit-delivery`; not listed with the deliveries'),
    sentAt: z.number().int(),
    headers: z
      .object({
        'x-kit-event': z.string(),
        'x-kit-delivery': z.string(),
        'x-kit-timestamp': z.string(),
        'x-kit-signature': z.string(),
      })
      .describe('The signed headers sent'),
    body: z.string().describe('The raw body sent: a `webhook.test` event in the usual envelope'),
    signedPayload: z
      .string()
      .describe(
        '`<timestamp>.<raw body>`: what x-kit-signature is the HMAC-SHA256 of, with the signing secret',
      ),
  })
  .meta({ id: 'WebhookTestResult' });
export type WebhookTestResult = z.output<typeof WebhookTestResult>;

export const DeliveryListQuery = PaginationQuery;

export const DeliveryListResult = z
  .object({ deliveries: z.array(WebhookDelivery), pagination: Pagination })
  .meta({ id: 'DeliveryListResult' });

export const PostDelivery = WebhookDelivery.extend({
  url: z.string().describe("The endpoint's URL, as registered"),
}).meta({ id: 'PostDelivery' });
export type PostDelivery = z.output<typeof PostDelivery>;

export const PostDeliveryListResult = z
  .object({ deliveries: z.array(PostDelivery) })
  .meta({ id: 'PostDeliveryListResult' });

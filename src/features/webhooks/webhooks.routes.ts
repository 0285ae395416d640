import { DeleteResult, errorResponses, IdParams } from '../../api/schemas.ts';
import { WEBHOOK_EVENTS } from '../../domain/enums.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { listPostDeliveries, MAX_POST_DELIVERIES } from './post-deliveries.service.ts';
import { sendTestEvent } from './webhook-test.service.ts';
import {
  CreateWebhookRequest,
  CreateWebhookResult,
  DeliveryListQuery,
  DeliveryListResult,
  PostDeliveryListResult,
  WebhookListResult,
  WebhookResult,
  WebhookTestResult,
} from './webhooks.schemas.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
} from './webhooks.service.ts';

const tags = ['webhooks'];

export const webhookRoutes: FeatureRoutes = async (app) => {
  app.get(
    '/v1/webhooks',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'List webhook endpoints',
        description:
          'Newest first; signing secrets are never included. `events` lists every subscribable event.',
        response: { 200: WebhookListResult, ...errorResponses(401, 429) },
      },
    },
    async (request) => ({
      webhooks: await listWebhooks({ ctx: request.ctx, input: undefined }),
      events: [...WEBHOOK_EVENTS],
    }),
  );

  app.post(
    '/v1/webhooks',
    {
      config: { scope: 'write', role: 'admin' },
      schema: {
        tags,
        summary: 'Register a webhook endpoint',
        description:
          'The URL must be HTTPS on a public host. The signing secret is returned in this response only. 503 when the deployment has no vault key to keep secrets with.',
        body: CreateWebhookRequest,
        response: { 201: CreateWebhookResult, ...errorResponses(400, 401, 409, 429, 503) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createWebhook({ ctx: request.ctx, input: request.body })),
  );

  app.get(
    '/v1/webhooks/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Get a webhook endpoint',
        params: IdParams,
        response: { 200: WebhookResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => ({ webhook: await getWebhook({ ctx: request.ctx, input: request.params }) }),
  );

  app.delete(
    '/v1/webhooks/:id',
    {
      config: { scope: 'write', role: 'admin' },
      schema: {
        tags,
        summary: 'Delete a webhook endpoint',
        description:
          'Removes the endpoint, its secret and its delivery history; queued deliveries are dropped.',
        params: IdParams,
        response: { 200: DeleteResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => deleteWebhook({ ctx: request.ctx, input: request.params }),
  );

  app.post(
    '/v1/webhooks/:id/test',
    {
      config: { scope: 'write', role: 'admin' },
      schema: {
        tags,
        summary: 'Send a test event',
        description:
          'An extension: sends one signed `webhook.test` delivery to the endpoint now, exactly as real deliveries are sent, and answers the receiver’s status (or why nothing arrived) with the headers and raw body sent; `signedPayload` is what `x-kit-signature` signs. Not queued, retried or listed with the deliveries. 200 whatever the receiver answered; 503 without a vault key.',
        params: IdParams,
        response: { 200: WebhookTestResult, ...errorResponses(401, 404, 429, 503) },
      },
    },
    async (request) => sendTestEvent({ ctx: request.ctx, input: request.params }),
  );

  app.get(
    '/v1/webhooks/:id/deliveries',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'List deliveries to an endpoint',
        description:
          'Newest first, with every attempt recorded (`attempts`, `lastStatusCode`, `lastError`, `nextAttemptAt`).',
        params: IdParams,
        querystring: DeliveryListQuery,
        response: { 200: DeliveryListResult, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) =>
      listDeliveries({ ctx: request.ctx, input: { id: request.params.id, page: request.query } }),
  );

  app.get(
    '/v1/posts/:id/deliveries',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Webhook deliveries about a post',
        description: `An extension: the deliveries of every event about this post (\`post.published\`, \`post.failed\`, \`post.scored\`, ...) to every endpoint, newest first, at most ${MAX_POST_DELIVERIES}, each with the endpoint's \`url\` and its attempts as on GET /v1/webhooks/{id}/deliveries.`,
        params: IdParams,
        response: { 200: PostDeliveryListResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => ({
      deliveries: await listPostDeliveries({ ctx: request.ctx, input: request.params }),
    }),
  );
};

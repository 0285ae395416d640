import { DeleteResult, errorResponses, IdParams } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import {
  QueueResult,
  QueueViewQuery,
  QueueViewResult,
  SetQueueRequest,
  SuggestQuery,
  SuggestResult,
} from './queues.schemas.ts';
import { deleteQueue, getQueue, setQueue } from './queues.service.ts';
import { suggestQueue } from './suggest.service.ts';

const tags = ['queues'];

export const queueRoutes: FeatureRoutes = async (app) => {
  app.put(
    '/v1/channels/:id/queue',
    {
      config: { scope: 'publish' },
      schema: {
        tags,
        summary: "Set a channel's queue",
        description:
          'Weekly slots (ISO weekday, Monday = 1, and local "HH:MM") in one IANA zone; at most 100, each listed once. Replaces the previous slots; posts already scheduled keep their times. A slot follows the zone across daylight-saving changes: one in a skipped hour falls on the first time after the jump, one in a repeated hour runs once.',
        params: IdParams,
        body: SetQueueRequest,
        response: { 200: QueueResult, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({
      queue: await setQueue({
        ctx: request.ctx,
        input: { channelId: request.params.id, queue: request.body },
      }),
    }),
  );

  app.get(
    '/v1/channels/:id/queue',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: "Get a channel's queue",
        description:
          'The slots and the next `count` slot times, each with the post of the channel scheduled (or published) at that time, or null when free. A channel without a queue answers UTC and no slots.',
        params: IdParams,
        querystring: QueueViewQuery,
        response: { 200: QueueViewResult, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) =>
      getQueue({ ctx: request.ctx, input: { channelId: request.params.id, count: request.query.count } }),
  );

  app.delete(
    '/v1/channels/:id/queue',
    {
      config: { scope: 'publish' },
      schema: {
        tags,
        summary: "Clear a channel's queue",
        description:
          '`deleted` is false when the channel had no queue. Posts already scheduled keep their times; `queue: true` then answers 409 queue_empty.',
        params: IdParams,
        response: { 200: DeleteResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => deleteQueue({ ctx: request.ctx, input: { channelId: request.params.id } }),
  );

  app.get(
    '/v1/channels/:id/queue/suggest',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Suggest queue slots',
        description:
          "Slots from the account's own results on the channel's platform: the best weekday and 3-hour windows of /v1/insights, each with its evidence (posts, multiple of the median). With under 20 timed posts, or no window above the median, the general figures instead; `source` says which. Writes nothing: PUT the slots you keep.",
        params: IdParams,
        querystring: SuggestQuery,
        response: { 200: SuggestResult, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) =>
      suggestQueue({ ctx: request.ctx, input: { channelId: request.params.id, ...request.query } }),
  );
};

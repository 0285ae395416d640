import { DeleteResult, errorResponses, IdParams } from '../../http/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { getCalendar } from './calendar.service.ts';
import { bulkSchedule, cancelPost, schedulePost } from './lifecycle.service.ts';
import {
  BulkScheduleRequest,
  CalendarQuery,
  CalendarResult,
  CreatePostRequest,
  PostConflict,
  PostErrorResult,
  PostListQuery,
  PostListResult,
  PostResult,
  ReviseScheduledRequest,
  SchedulePostRequest,
  UpdatePostRequest,
} from './posts.schemas.ts';
import { createPost, deletePost, getPost, listPosts, updatePost } from './posts.service.ts';
import { publishNow } from './publishing/publish-now.service.ts';
import { reviseScheduled } from './revise.service.ts';

const tags = ['posts'];

export const postRoutes: FeatureRoutes = async (app) => {
  app.get(
    '/v1/posts',
    {
      schema: {
        tags,
        summary: 'List posts',
        description: 'Newest first; optionally only one status.',
        querystring: PostListQuery,
        response: { 200: PostListResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => listPosts({ ctx: request.ctx, input: request.query }),
  );

  app.post(
    '/v1/posts',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Create a post',
        description:
          'A draft, or a scheduled post when `runAt` (epoch ms, in the future) is given; scheduling needs a `channelId`. Every reference must be the caller’s; the text, each `thread` part (platformB only) and the `firstComment` must fit the platform, each problem reported at its part (`thread[2]`). Honours `Idempotency-Key`.',
        body: CreatePostRequest,
        response: { 201: PostResult, ...errorResponses(400, 401, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ post: await createPost({ ctx: request.ctx, input: request.body }) }),
  );

  app.post(
    '/v1/posts/bulk-schedule',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Schedule many posts',
        description:
          'Every item is validated on its own; any problem fails the whole batch with per-item details (`items[2].runAt`) and nothing is created. Honours `Idempotency-Key`.',
        body: BulkScheduleRequest,
        response: { 201: PostListResult, ...errorResponses(400, 401, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const posts = await bulkSchedule({ ctx: request.ctx, input: request.body });
      return reply
        .status(201)
        .send({ posts, pagination: { limit: posts.length, offset: 0, hasMore: false } });
    },
  );

  app.get(
    '/v1/posts/:id',
    {
      schema: {
        tags,
        summary: 'Get a post',
        params: IdParams,
        response: { 200: PostResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => ({ post: await getPost({ ctx: request.ctx, input: request.params }) }),
  );

  app.patch(
    '/v1/posts/:id',
    {
      schema: {
        tags,
        summary: 'Edit a draft',
        description: 'Drafts only (409 not_draft otherwise); only the fields present change.',
        params: IdParams,
        body: UpdatePostRequest,
        response: { 200: PostResult, 409: PostConflict, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({
      post: await updatePost({
        ctx: request.ctx,
        input: { id: request.params.id, changes: request.body ?? {} },
      }),
    }),
  );

  app.patch(
    '/v1/posts/:id/scheduled',
    {
      schema: {
        tags,
        summary: 'Edit a scheduled post',
        description:
          'An extension (PATCH /v1/posts/{id} stays drafts only): changes the text, thread, first comment or media of a scheduled post until its publish starts; only the fields present change, and they must fit the platform as on create. Its channel, brand and time stay (POST /schedule moves it). 409 publish_started once the publish has claimed the post (or a part of it was published before a retry), 409 not_scheduled for a draft, 409 post_terminal for a finished post; each carries the post.',
        params: IdParams,
        body: ReviseScheduledRequest,
        response: { 200: PostResult, 409: PostConflict, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({
      post: await reviseScheduled({
        ctx: request.ctx,
        input: { id: request.params.id, changes: request.body ?? {} },
      }),
    }),
  );

  app.delete(
    '/v1/posts/:id',
    {
      schema: {
        tags,
        summary: 'Delete a post',
        description:
          'Any state; a scheduled post’s pending job goes with it. A published post stays on the platform.',
        params: IdParams,
        response: { 200: DeleteResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => deletePost({ ctx: request.ctx, input: request.params }),
  );

  app.post(
    '/v1/posts/:id/publish',
    {
      // An extension: a replay with the same Idempotency-Key answers the first publish's post.
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Publish now',
        description:
          'Claims the post (draft or scheduled -> publishing) and publishes it exactly once: with a thread or a first comment, each part once, in order, each recorded before the next is sent (a part that fails for good fails the post with an error naming it; the parts before it stay in `platformPostIds`). A second or concurrent call gets 409 not_claimable with the post; one with the same `Idempotency-Key` as an earlier successful call (an extension) answers that call’s post again. Channel problems give 409 (channel_revoked, channel_expired, channel_error) and a platform rejection 502 publish_failed, each with the failed post; also 502 publish_failed when the platform never answered the create and cannot say whether it has the post (the post’s `error` then opens with publish_outcome_unknown). A transient platform outage gives 503 platform_unavailable with the post back in `scheduled` for an automatic retry. 400 when the post has no channel.',
        params: IdParams,
        response: {
          200: PostResult,
          409: PostErrorResult,
          502: PostErrorResult,
          ...errorResponses(400, 401, 404, 429, 503),
        },
      },
    },
    async (request) => ({ post: await publishNow({ ctx: request.ctx, input: request.params }) }),
  );

  app.post(
    '/v1/posts/:id/schedule',
    {
      schema: {
        tags,
        summary: 'Schedule a post',
        description:
          'draft -> scheduled, or a new time for a scheduled post (its pending job is replaced). `runAt` must be in the future and the post needs a channel.',
        params: IdParams,
        body: SchedulePostRequest,
        response: { 200: PostResult, 409: PostConflict, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({
      post: await schedulePost({
        ctx: request.ctx,
        input: { id: request.params.id, runAt: request.body.runAt },
      }),
    }),
  );

  app.post(
    '/v1/posts/:id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a post',
        description:
          'Any non-terminal post not yet sent to the platform becomes canceled (a no-op when already canceled). 409 post_terminal for published or failed posts, 409 post_publishing once the create is on its way.',
        params: IdParams,
        response: { 200: PostResult, 409: PostConflict, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => ({ post: await cancelPost({ ctx: request.ctx, input: request.params }) }),
  );

  app.get(
    '/v1/calendar',
    {
      schema: {
        tags,
        summary: 'Calendar',
        description:
          'Scheduled (and in-flight) posts at their scheduled time and published posts at their published time, chronological. `from` inclusive, `to` exclusive, both epoch ms and optional.',
        querystring: CalendarQuery,
        response: { 200: CalendarResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => ({ calendar: await getCalendar({ ctx: request.ctx, input: request.query }) }),
  );
};
